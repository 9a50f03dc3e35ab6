import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AssessmentQuestionView, type UpdateQuestionBody } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { assessmentPath } from './assessment-path';
import { applyQuestion } from './question-cache';

export interface UpdateQuestionInput {
  batchId: string;
  questionId: string;
  /** A new answer, `status: 'approved'` to accept it, or both. */
  body: UpdateQuestionBody;
}

export function updateQuestion({ batchId, questionId, body }: UpdateQuestionInput): Promise<AssessmentQuestionView> {
  return api.put(
    assessmentPath(batchId, `/questions/${encodeURIComponent(questionId)}`),
    AssessmentQuestionView,
    body,
    {
      errorFallback: 'Failed to update the answer',
    },
  );
}

/** A reviewer's edit or acceptance of one answer. */
export function useUpdateQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateQuestion,
    onSuccess: (question, { batchId }) => applyQuestion(queryClient, batchId, question),
  });
}
