import type { AdminUserRow } from '../../../../common/schemas/admin';
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
  user: AdminUserRow | null;
  onCancel: () => void;
  onConfirm: (user: AdminUserRow) => void;
}

/** Removing someone ends their access at once, so it is asked for twice. */
export function RemoveUserDialog({ user, onCancel, onConfirm }: RemoveUserDialogProps) {
  return (
    <AlertDialog open={user !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Remove {user?.username}?</AlertDialogTitle>
          <AlertDialogDescription>
            {user?.email} loses access at once: their sessions end and they can no longer sign in. Their questions and
            the audit log keep their name. To bring them back, invite them again.
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
