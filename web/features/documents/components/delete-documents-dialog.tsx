import type { DocumentView } from '../../../../common/schemas/documents';
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

/** What is about to be deleted: one document from its card, or the selection. */
export type DeleteTarget = { kind: 'one'; document: DocumentView } | { kind: 'selection'; ids: string[] };

interface DeleteDocumentsDialogProps {
  target: DeleteTarget | null;
  onCancel: () => void;
  onConfirm: (target: DeleteTarget) => void;
}

/** Deleting removes the file and its extracted text for good, so it is always asked for first. */
export function DeleteDocumentsDialog({ target, onCancel, onConfirm }: DeleteDocumentsDialogProps) {
  const title = target?.kind === 'one' ? 'Delete this document?' : 'Delete documents?';
  return (
    <AlertDialog open={target !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>
            {target?.kind === 'one' ? (
              <>
                &ldquo;<span className="break-all">{target.document.originalName}</span>&rdquo; and its extracted text
                will be removed. This action cannot be undone.
              </>
            ) : (
              // The specification's wording for the bulk confirmation.
              `Are you sure you want to delete ${String(target?.ids.length ?? 0)} document(s)? This action cannot be undone.`
            )}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => target && onConfirm(target)}>Delete</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
