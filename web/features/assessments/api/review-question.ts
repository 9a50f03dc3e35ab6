import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReviewAction } from '../../../../common/review-states';
import { AssessmentQuestionView } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { assessmentPath } from './assessment-path';
import { applyQuestion } from './question-cache';

export interface ReviewQuestionInput {
  batchId: string;
  questionId: string;
  action: ReviewAction;
  /** When the answer on screen was written: the server refuses the step if the answer changed since (409). */
  answeredAt: string | null;
}

/** One review step (submit, approve, send back, not applicable, reopen); 409 when the question moved on meanwhile. */
export function reviewQuestion({
  batchId,
  questionId,
  action,
  answeredAt,
}: ReviewQuestionInput): Promise<AssessmentQuestionView> {
  return api.post(
    assessmentPath(batchId, `/questions/${encodeURIComponent(questionId)}/review`),
    AssessmentQuestionView,
    { action, answeredAt },
    { errorFallback: 'Failed to update the review' },
  );
}

export function useReviewQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewQuestion,
    onSuccess: (question, { batchId }) => applyQuestion(queryClient, batchId, question),
  });
}
