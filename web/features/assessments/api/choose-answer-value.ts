import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AssessmentQuestionView, type AnswerChoiceBody } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { assessmentPath } from './assessment-path';
import { applyQuestion } from './question-cache';

export interface ChooseAnswerValueInput {
  batchId: string;
  questionId: string;
  body: AnswerChoiceBody;
}

/** Picks the value the export writes into the question's dropdown cell (null: chosen from the answer again). */
export function chooseAnswerValue({
  batchId,
  questionId,
  body,
}: ChooseAnswerValueInput): Promise<AssessmentQuestionView> {
  return api.put(
    assessmentPath(batchId, `/questions/${encodeURIComponent(questionId)}/choice`),
    AssessmentQuestionView,
    body,
    {
      errorFallback: 'Failed to set the dropdown value',
    },
  );
}

export function useChooseAnswerValue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: chooseAnswerValue,
    onSuccess: (question, { batchId }) => applyQuestion(queryClient, batchId, question),
  });
}
