import type { BatchView } from '../../../../common/schemas/assessments';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';

interface DeleteAssessmentDialogProps {
  batch: BatchView | null;
  onCancel: () => void;
  onConfirm: (batch: BatchView) => void;
}

/** Deleting removes every question, answer and the stored original file for good, so it is asked for first. */
export function DeleteAssessmentDialog({ batch, onCancel, onConfirm }: DeleteAssessmentDialogProps) {
  return (
    <ConfirmDeleteDialog
      item={batch}
      title="Delete this assessment?"
      description={(b) => (
        <>
          &ldquo;<span className="break-words">{b?.name}</span>&rdquo; and all {b ? String(b.totalQuestions) : ''} of
          its questions and answers will be removed. This action cannot be undone.
        </>
      )}
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
