import type { CanonicalAnswerView } from '../../../../common/schemas/knowledge';
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

interface DeleteAnswerDialogProps {
  answer: CanonicalAnswerView | null;
  onCancel: () => void;
  onConfirm: (answer: CanonicalAnswerView) => void;
}

/** Deleting cannot be undone (archiving can), so it is asked for twice and archiving is offered as the gentler way. */
export function DeleteAnswerDialog({ answer, onCancel, onConfirm }: DeleteAnswerDialogProps) {
  return (
    <AlertDialog open={answer !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this answer?</AlertDialogTitle>
          <AlertDialogDescription>
            &ldquo;<span className="break-words">{answer?.question}</span>&rdquo; and its history will be removed. This
            action cannot be undone. Archive it instead to keep it out of answers but on record.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => answer && onConfirm(answer)}>Delete</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
