import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RetryResult } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { assessmentPath } from './assessment-path';
import { invalidateAssessments } from '../../../app/invalidate';

/** Sends every failed question of the assessment back to the worker; resolves to how many went. */
export async function retryFailedQuestions(batchId: string): Promise<number> {
  const result = await api.post(assessmentPath(batchId, '/retry-failed'), RetryResult, undefined, {
    errorFallback: 'Failed to retry the failed questions',
  });
  return result.retried;
}

export function useRetryFailedQuestions() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: retryFailedQuestions, onSuccess: () => invalidateAssessments(queryClient) });
}
