import { useCallback, useMemo, useState } from 'react';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api';
import { useRegenerateQuestion } from './api/regenerate-question';
import { useSaveQuestionToLibrary } from './api/save-question-to-library';
import { useUpdateQuestion } from './api/update-question';

export type QuestionAction = 'save' | 'accept' | 'regenerate' | 'library';

export interface QuestionHandlers {
  /** Saves an edited answer; `onSaved` closes the editor. */
  onSave: (question: AssessmentQuestionView, answer: string, onSaved: () => void) => void;
  onAccept: (question: AssessmentQuestionView) => void;
  onRegenerate: (question: AssessmentQuestionView) => void;
  onSaveToLibrary: (question: AssessmentQuestionView) => void;
  /** Scrolls to the question with this order number (a contradiction's other side). */
  onJumpTo: (orderIndex: number) => void;
}

function failed(error: unknown, fallback: string) {
  toast({ title: 'Error', description: errorMessage(error, fallback), variant: 'destructive' });
}

/**
 * The reviewer's actions on the questions of one assessment, with the action running for each question so only
 * that row shows it. The handlers are stable, so the memoized rows are not re-rendered by a poll.
 */
export function useQuestionActions(batchId: string, onJumpTo: (orderIndex: number) => void) {
  const { mutate: update } = useUpdateQuestion();
  const { mutate: regenerate } = useRegenerateQuestion();
  const { mutate: saveToLibrary } = useSaveQuestionToLibrary();
  const [busy, setBusy] = useState<ReadonlyMap<string, QuestionAction>>(new Map());

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
      onSave: (question, answer, onSaved) => {
        track(question.id, 'save');
        update(
          { batchId, questionId: question.id, body: { answer } },
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
      onAccept: (question) => {
        track(question.id, 'accept');
        update(
          { batchId, questionId: question.id, body: { status: 'approved' } },
          { onError: (error) => failed(error, 'Failed to accept the answer'), onSettled: settle(question.id) },
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
                      title: 'Saved to the library as a draft',
                      description: 'A manager or admin approves it before it is used in answers.',
                      variant: 'success',
                    },
              ),
            onError: (error) => failed(error, 'Failed to create answer'),
            onSettled: settle(question.id),
          },
        );
      },
      onJumpTo,
    };
  }, [batchId, update, regenerate, saveToLibrary, track, onJumpTo]);

  return { handlers, busy };
}
