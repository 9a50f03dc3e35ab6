import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AssessmentQuestionView } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { assessmentPath } from './assessment-path';
import { applyQuestion } from './question-cache';

export interface QuestionRef {
  batchId: string;
  questionId: string;
}

/** Sends one question back to the worker for a fresh answer (after the library or the documents changed). */
export function regenerateQuestion({ batchId, questionId }: QuestionRef): Promise<AssessmentQuestionView> {
  return api.post(
    assessmentPath(batchId, `/questions/${encodeURIComponent(questionId)}/regenerate`),
    AssessmentQuestionView,
    undefined,
    { errorFallback: 'Failed to regenerate the answer' },
  );
}

export function useRegenerateQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateQuestion,
    onSuccess: (question, { batchId }) => applyQuestion(queryClient, batchId, question),
  });
}
