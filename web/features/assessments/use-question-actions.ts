import { useCallback, useMemo, useState } from 'react';
import type { ReviewAction } from '../../../common/review-states';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api';
import { useRegenerateQuestion } from './api/regenerate-question';
import { useReviewQuestion } from './api/review-question';
import { useSaveQuestionToLibrary } from './api/save-question-to-library';
import { useUpdateQuestion } from './api/update-question';
import { useChooseAnswerValue } from './api/choose-answer-value';
import type { Cite } from './review-rules';

export type QuestionAction = 'save' | 'regenerate' | 'library' | 'choice' | ReviewAction;

export interface QuestionHandlers {
  /** Saves a person's answer; `onSaved` closes the editor. */
  onSave: (question: AssessmentQuestionView, answer: string, cite: Cite | null, onSaved: () => void) => void;
  onReview: (question: AssessmentQuestionView, action: ReviewAction) => void;
  onRegenerate: (question: AssessmentQuestionView) => void;
  onSaveToLibrary: (question: AssessmentQuestionView) => void;
  /** Sets what the export writes into the dropdown cell ('' leaves it empty, null follows the answer again). */
  onPickChoice: (question: AssessmentQuestionView, value: string | null) => void;
  /** Opens the assign dialog for this question. */
  onAssign: (question: AssessmentQuestionView) => void;
  onToggleSelected: (questionId: string, selected: boolean) => void;
  /** Scrolls to the question with this order number (a contradiction's other side). */
  onJumpTo: (orderIndex: number) => void;
}

function failed(error: unknown, fallback: string) {
  toast({ title: 'Error', description: errorMessage(error, fallback), variant: 'destructive' });
}

const REVIEW_DONE: Record<ReviewAction, string> = {
  submit: 'Submitted for review',
  approve: 'Answer approved',
  return: 'Sent back to its author',
  not_applicable: 'Marked not applicable',
  reopen: 'Question reopened',
};

interface PageHandlers {
  onAssign: QuestionHandlers['onAssign'];
  onToggleSelected: QuestionHandlers['onToggleSelected'];
  onJumpTo: QuestionHandlers['onJumpTo'];
}

/**
 * The reviewer's actions on the questions of one assessment, with the action running for each question so only
 * that row shows it. The handlers are stable, so the memoized rows are not re-rendered by a poll.
 */
export function useQuestionActions(batchId: string, page: PageHandlers) {
  const { mutate: update } = useUpdateQuestion();
  const { mutate: review } = useReviewQuestion();
  const { mutate: regenerate } = useRegenerateQuestion();
  const { mutate: saveToLibrary } = useSaveQuestionToLibrary();
  const { mutate: chooseValue } = useChooseAnswerValue();
  const [busy, setBusy] = useState<ReadonlyMap<string, QuestionAction>>(new Map());
  const { onAssign, onToggleSelected, onJumpTo } = page;

  const track = useCallback((id: string, action: QuestionAction | null) => {
    setBusy((current) => {
      const next = new Map(current);
      if (action) next.set(id, action);
      else next.delete(id);
      return next;
    });
  }, []);

  const handlers = useMemo<QuestionHandlers>(() => {
    const settle = (id: string) => () => track(id, null);
    return {
      onSave: (question, answer, cite, onSaved) => {
        track(question.id, 'save');
        update(
          { batchId, questionId: question.id, body: { answer, cite } },
          {
            onSuccess: () => {
              toast({ title: 'Answer saved', variant: 'success' });
              onSaved();
            },
            onError: (error) => failed(error, 'Failed to update the answer'),
            onSettled: settle(question.id),
          },
        );
      },
      onReview: (question, action) => {
        track(question.id, action);
        review(
          { batchId, questionId: question.id, action, answeredAt: question.answeredAt },
          {
            onSuccess: () => toast({ title: REVIEW_DONE[action], variant: 'success' }),
            onError: (error) => failed(error, 'Failed to update the review'),
            onSettled: settle(question.id),
          },
        );
      },
      onRegenerate: (question) => {
        track(question.id, 'regenerate');
        regenerate(
          { batchId, questionId: question.id },
          { onError: (error) => failed(error, 'Failed to regenerate the answer'), onSettled: settle(question.id) },
        );
      },
      onSaveToLibrary: (question) => {
        track(question.id, 'library');
        saveToLibrary(
          { batchId, questionId: question.id },
          {
            onSuccess: (result) =>
              toast(
                result.status === 'approved'
                  ? {
                      title: 'Saved to the library',
                      description: 'The answer is now an approved library entry.',
                      variant: 'success',
                    }
                  : {
                      title: 'Suggested to the library',
                      description: 'A manager or admin approves it before it is used in answers.',
                      variant: 'success',
                    },
              ),
            onError: (error) => failed(error, 'Failed to create answer'),
            onSettled: settle(question.id),
          },
        );
      },
      onPickChoice: (question, value) => {
        track(question.id, 'choice');
        chooseValue(
          { batchId, questionId: question.id, body: { value } },
          {
            onSuccess: (saved) =>
              toast({
                title: 'Dropdown value saved',
                description:
                  question.reviewState === 'approved' && saved.reviewState !== 'approved'
                    ? 'The approval was withdrawn: approve the answer again with this value.'
                    : undefined,
                variant: 'success',
              }),
            onError: (error) => failed(error, 'Failed to set the dropdown value'),
            onSettled: settle(question.id),
          },
        );
      },
      onAssign,
      onToggleSelected,
      onJumpTo,
    };
  }, [batchId, update, review, regenerate, saveToLibrary, chooseValue, track, onAssign, onToggleSelected, onJumpTo]);

  return { handlers, busy };
}
