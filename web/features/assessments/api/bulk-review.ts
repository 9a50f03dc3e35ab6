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
 * applicable, approve); resolves to how many questions changed and, for approve, how many were skipped because
 * their answer changed since the reviewer saw it.
 */
export function bulkReview({ batchId, body }: BulkReviewInput): Promise<BulkReviewResult> {
  return api.post(assessmentPath(batchId, '/review'), BulkReviewResult, body, {
    errorFallback: 'Failed to update the questions',
  });
}

export function useBulkReview() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: bulkReview, onSuccess: () => invalidateAssessments(queryClient) });
}
