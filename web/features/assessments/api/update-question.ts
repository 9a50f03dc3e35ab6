import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AssessmentQuestionView, type UpdateQuestionBody } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { assessmentPath } from './assessment-path';
import { applyQuestion } from './question-cache';

export interface UpdateQuestionInput {
  batchId: string;
  questionId: string;
  /** A person's answer, optionally citing the library entry or document it rests on. */
  body: UpdateQuestionBody;
}

/** Replaces the answer with a person's: the server records them as its author and the answer becomes a draft again. */
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

/** A reviewer's own answer to one question. */
export function useUpdateQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateQuestion,
    onSuccess: (question, { batchId }) => applyQuestion(queryClient, batchId, question),
  });
}
