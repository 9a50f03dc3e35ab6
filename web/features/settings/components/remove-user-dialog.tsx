import type { UserView } from '../../../../common/schemas/auth';
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

interface RemoveUserDialogProps {
  user: UserView | null;
  onCancel: () => void;
  onConfirm: (user: UserView) => void;
}

/** Removal ends the person's access at once, so it is confirmed, naming who and what happens. */
export function RemoveUserDialog({ user, onCancel, onConfirm }: RemoveUserDialogProps) {
  return (
    <AlertDialog open={user !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Remove {user?.username}?</AlertDialogTitle>
          <AlertDialogDescription>
            {user?.email} will be signed out everywhere and can no longer sign in to this organization. Their questions,
            answers and audit entries stay. To give them access again, send a new invitation.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => user && onConfirm(user)}>Remove</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
