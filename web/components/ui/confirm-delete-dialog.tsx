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
  onCancel: () => void;
  onConfirm: (item: T) => void;
}

/** Asks before deleting one thing for good: Cancel, or Delete. */
export function ConfirmDeleteDialog<T>({ item, title, description, onCancel, onConfirm }: ConfirmDeleteDialogProps<T>) {
  return (
    <AlertDialog open={item !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description(item)}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => item !== null && onConfirm(item)}>Delete</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
