import type { BatchView } from '../../../../common/schemas/assessments';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../../components/ui/alert-dialog';

interface DeleteAssessmentDialogProps {
  batch: BatchView | null;
  onCancel: () => void;
  onConfirm: (batch: BatchView) => void;
}

/** Deleting removes every question, answer and the stored original file for good, so it is asked for first. */
export function DeleteAssessmentDialog({ batch, onCancel, onConfirm }: DeleteAssessmentDialogProps) {
  return (
    <AlertDialog open={batch !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this assessment?</AlertDialogTitle>
          <AlertDialogDescription>
            &ldquo;<span className="break-words">{batch?.name}</span>&rdquo; and all{' '}
            {batch ? String(batch.totalQuestions) : ''} of its questions and answers will be removed. This action cannot
            be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => batch && onConfirm(batch)}>Delete</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
