import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BulkReviewResult, type BulkReviewBody } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { invalidateAssessments } from '../../../app/invalidate';
import { assessmentPath } from './assessment-path';

export interface BulkReviewInput {
  batchId: string;
  body: BulkReviewBody;
}

/**
 * One review step on many questions at once (accept every machine answer at or above a confidence, assign, mark not
 * applicable, approve); resolves to how many questions changed.
 */
export async function bulkReview({ batchId, body }: BulkReviewInput): Promise<number> {
  const result = await api.post(assessmentPath(batchId, '/review'), BulkReviewResult, body, {
    errorFallback: 'Failed to update the questions',
  });
  return result.updated;
}

export function useBulkReview() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: bulkReview, onSuccess: () => invalidateAssessments(queryClient) });
}
