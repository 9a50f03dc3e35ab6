import type { CanonicalAnswerView } from '../../../../common/schemas/knowledge';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';

interface DeleteAnswerDialogProps {
  answer: CanonicalAnswerView | null;
  onCancel: () => void;
  onConfirm: (answer: CanonicalAnswerView) => void;
}

/** Deleting cannot be undone (archiving can), so it is asked for twice and archiving is offered as the gentler way. */
export function DeleteAnswerDialog({ answer, onCancel, onConfirm }: DeleteAnswerDialogProps) {
  return (
    <ConfirmDeleteDialog
      item={answer}
      title="Delete this answer?"
      description={(a) => (
        <>
          &ldquo;<span className="break-words">{a?.question}</span>&rdquo; and its history will be removed. This action
          cannot be undone. Archive it instead to keep it out of answers but on record.
        </>
      )}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
