import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AssessmentQuestionView, type UpdateQuestionBody } from '../../../../common/schemas/assessments';
import { api } from '../../../lib/api';
import { invalidateAssessments } from '../../../app/invalidate';

export interface AnswerQuestionInput {
  batchId: string;
  questionId: string;
  /** A new answer to save first; without it the current answer is only submitted. */
  body?: UpdateQuestionBody;
  /** Then hand the answer to a reviewer. */
  submit: boolean;
  /** When the answer on screen was written (sent with the submit, so a changed answer is not submitted unseen). */
  answeredAt: string | null;
}

function questionPath(batchId: string, questionId: string, rest = ''): string {
  return `/api/assessments/${encodeURIComponent(batchId)}/questions/${encodeURIComponent(questionId)}${rest}`;
}

/** The assignee's work on a question: save their answer, submit it for review, or both in that order. */
export async function answerQuestion({
  batchId,
  questionId,
  body,
  submit,
  answeredAt,
}: AnswerQuestionInput): Promise<AssessmentQuestionView | null> {
  let question: AssessmentQuestionView | null = null;
  if (body) {
    question = await api.put(questionPath(batchId, questionId), AssessmentQuestionView, body, {
      errorFallback: 'Failed to update the answer',
    });
  }
  // Saved unchanged, an answer already in review (or approved) stays where it is: nothing to submit.
  if (submit && (question === null || question.reviewState === 'drafted')) {
    question = await api.post(
      questionPath(batchId, questionId, '/review'),
      AssessmentQuestionView,
      { action: 'submit', answeredAt: question ? question.answeredAt : answeredAt },
      { errorFallback: 'Failed to submit the answer for review' },
    );
  }
  return question;
}

export function useAnswerQuestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: answerQuestion,
    // My questions sits under the assessments root, with the assessment's own page.
    onSettled: () => invalidateAssessments(queryClient),
  });
}
