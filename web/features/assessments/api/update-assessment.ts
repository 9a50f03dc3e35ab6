import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BatchView } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { invalidateAssessments } from '../../../app/invalidate';
import { assessmentPath } from './assessment-path';

export interface UpdateAssessmentInput {
  batchId: string;
  /** The day the customer expects the file back (YYYY-MM-DD); null clears it. */
  dueOn: string | null;
}

export function updateAssessment({ batchId, dueOn }: UpdateAssessmentInput): Promise<BatchView> {
  return api.patch(assessmentPath(batchId), BatchView, { dueOn }, { errorFallback: 'Failed to set the due date' });
}

export function useUpdateAssessment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateAssessment, onSuccess: () => invalidateAssessments(queryClient) });
}
