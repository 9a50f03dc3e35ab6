import { useState } from 'react';
import { LoaderCircle } from 'lucide-react';
import type { AdminUserRow } from '../../../../common/schemas/admin';
import type { Role } from '../../../../common/roles';
import { useChangeUserRole } from '../../../app/people/change-user-role';
import { RoleField } from '../../../components/people/role-field';
import { isRole } from '../../../components/people/role-select';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { toast, toastError } from '../../../components/ui/use-toast';

interface EditUserDialogProps {
  user: AdminUserRow | null;
  onClose: () => void;
}

function RoleForm({ user, onClose }: { user: AdminUserRow; onClose: () => void }) {
  const changeRole = useChangeUserRole();
  const current = isRole(user.role) ? user.role : null;
  const [role, setRole] = useState<Role>(current ?? 'viewer');

  const save = () => {
    if (role === current) {
      onClose();
      return;
    }
    changeRole.mutate(
      { userId: user.id, role },
      {
        onSuccess: () => {
          toast({ title: 'User role updated successfully', variant: 'success' });
          onClose();
        },
        onError: (error) => toastError(error, 'Failed to update user role'),
      },
    );
  };

  return (
    <form
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <RoleField id="edit-role" value={role} onChange={setRole} />
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={changeRole.isPending}>
          {changeRole.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          Save Role
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Edit a user: their role, among the four (PRODUCT §4). */
export function EditUserDialog({ user, onClose }: EditUserDialogProps) {
  return (
    <Dialog open={user !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Edit User</DialogTitle>
          <DialogDescription>
            {user ? (
              <>
                <span className="font-medium text-foreground">{user.username}</span> · {user.email}
              </>
            ) : null}
          </DialogDescription>
        </DialogHeader>
        {/* Keyed by user so the choice starts from that user's role each time. */}
        {user && <RoleForm key={user.id} user={user} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}
