import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../components/ui/alert-dialog';
import { toast, toastError } from '../../components/ui/use-toast';
import { useRemoveUser } from './remove-user';

/** Who is removed: any screen's user row has these. */
export interface RemovableUser {
  id: string;
  username: string;
  email: string;
}

interface RemoveUserDialogProps {
  /** The user to confirm the removal of; null keeps the dialog closed. */
  user: RemovableUser | null;
  onClose: () => void;
}

/**
 * Removal ends the person's access at once, so it is confirmed, naming who and what happens; on confirmation the
 * dialog closes and the removal runs (a list shows its rows' progress with `useUsersBeingRemoved`).
 */
export function RemoveUserDialog({ user, onClose }: RemoveUserDialogProps) {
  const removeMutation = useRemoveUser();

  const remove = (removed: RemovableUser) => {
    onClose();
    removeMutation.mutate(removed.id, {
      onSuccess: () =>
        toast({ title: 'User removed', description: `${removed.username} no longer has access.`, variant: 'success' }),
      onError: (error) => toastError(error, 'Failed to remove user'),
    });
  };

  return (
    <AlertDialog open={user !== null} onOpenChange={(open) => !open && onClose()}>
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
          <AlertDialogAction onClick={() => user && remove(user)}>Remove</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
