import type { ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './alert-dialog';

interface ConfirmDeleteDialogProps<T> {
  /** What is about to be deleted; the dialog is open while this is set. */
  item: T | null;
  title: string;
  description: (item: T | null) => ReactNode;
  /** Shown under the description, e.g. which item it is. */
  details?: (item: T) => ReactNode;
  /** The confirming button; "Delete" unless the action is another one that cannot be undone (Revoke…). */
  confirmLabel?: string;
  onCancel: () => void;
  onConfirm: (item: T) => void;
}

/** Asks before deleting (or otherwise ending) one thing for good: Cancel, or Delete. */
export function ConfirmDeleteDialog<T>({
  item,
  title,
  description,
  details,
  confirmLabel = 'Delete',
  onCancel,
  onConfirm,
}: ConfirmDeleteDialogProps<T>) {
  return (
    <AlertDialog open={item !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description(item)}</AlertDialogDescription>
        </AlertDialogHeader>
        {item !== null && details?.(item)}
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => item !== null && onConfirm(item)}>{confirmLabel}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
