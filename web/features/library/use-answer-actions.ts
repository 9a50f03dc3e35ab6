import { useCallback, useMemo } from 'react';
import type { AnswerStatus, CanonicalAnswerView } from '../../../common/schemas/knowledge';
import { toast, toastError } from '../../components/ui/use-toast';
import { useDeleteCanonicalAnswer } from './api/delete-canonical-answer';
import { useUpdateCanonicalAnswer } from './api/update-canonical-answer';
import { useVerifyCanonicalAnswer } from './api/verify-canonical-answer';

export interface AnswerActions {
  setStatus: (answer: CanonicalAnswerView, status: AnswerStatus) => void;
  verify: (answer: CanonicalAnswerView) => void;
  remove: (answer: CanonicalAnswerView, onDone?: () => void) => void;
  /** The entry a status change, verification or deletion is running for, so its card can show it. */
  busyId: string | null;
}

const STATUS_TOASTS: Record<AnswerStatus, string> = {
  approved: 'Answer approved',
  draft: 'Answer moved to drafts',
  archived: 'Answer archived',
};

/** The one-click library actions (approve, verify, archive, restore, delete) with their toasts. */
export function useAnswerActions(): AnswerActions {
  // mutate functions are stable; the mutation objects are not, so callbacks depend on the functions only.
  const update = useUpdateCanonicalAnswer();
  const verifyMutation = useVerifyCanonicalAnswer();
  const deleteMutation = useDeleteCanonicalAnswer();
  const { mutate: updateAnswer } = update;
  const { mutate: verifyAnswer } = verifyMutation;
  const { mutate: deleteAnswer } = deleteMutation;

  const setStatus = useCallback(
    (answer: CanonicalAnswerView, status: AnswerStatus) => {
      updateAnswer(
        { id: answer.id, body: { status } },
        {
          onSuccess: () => toast({ title: STATUS_TOASTS[status], variant: 'success' }),
          onError: (error) => toastError(error, 'Failed to update answer'),
        },
      );
    },
    [updateAnswer],
  );

  const verify = useCallback(
    (answer: CanonicalAnswerView) => {
      verifyAnswer(answer.id, {
        onSuccess: () =>
          toast({ title: 'Answer verified', description: 'Its last-verified date is now today.', variant: 'success' }),
        onError: (error) => toastError(error, 'Failed to verify answer'),
      });
    },
    [verifyAnswer],
  );

  const remove = useCallback(
    (answer: CanonicalAnswerView, onDone?: () => void) => {
      deleteAnswer(answer.id, {
        onSuccess: () => {
          toast({ title: 'Answer deleted', variant: 'success' });
          onDone?.();
        },
        onError: (error) => toastError(error, 'Delete failed', 'Delete failed'),
      });
    },
    [deleteAnswer],
  );

  const busyId =
    (update.isPending ? update.variables.id : null) ??
    (verifyMutation.isPending ? verifyMutation.variables : null) ??
    (deleteMutation.isPending ? deleteMutation.variables : null);

  return useMemo(() => ({ setStatus, verify, remove, busyId }), [setStatus, verify, remove, busyId]);
}
