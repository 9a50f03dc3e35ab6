import { useState } from 'react';
import { Pencil, Trash2, UserPlus } from 'lucide-react';
import type { AdminUserRow } from '../../../../common/schemas/admin';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { useMe } from '../../auth/api/get-me';
import { useAdminUsers } from '../api/get-admin-users';
import { useRemoveUser } from '../api/remove-user';
import { EditUserDialog } from './edit-user-dialog';
import { InviteUserDialog } from './invite-user-dialog';
import { LoadError } from './load-error';
import { PendingInvitations } from './pending-invitations';
import { RemoveUserDialog } from './remove-user-dialog';
import { RoleBadge } from './role-badge';
import { SectionHeader } from './section-header';

/** SPEC: the first 2 letters of the e-mail's local part, upper-cased. */
export function emailInitials(email: string): string {
  return (email.split('@')[0] ?? '').slice(0, 2).toUpperCase() || 'U';
}

function UserRow({
  user,
  isSelf,
  onEdit,
  onRemove,
}: {
  user: AdminUserRow;
  isSelf: boolean;
  onEdit: () => void;
  onRemove: () => void;
}) {
  return (
    <tr className="border-b last:border-b-0">
      <td className="py-3 pr-4 pl-4">
        <div className="flex min-w-0 items-center gap-3">
          <span
            aria-hidden
            className="flex size-9 shrink-0 items-center justify-center rounded-full bg-accent text-xs font-semibold text-accent-foreground"
          >
            {emailInitials(user.email)}
          </span>
          <div className="min-w-0">
            <p className="truncate font-medium">
              {user.username}
              {isSelf && <span className="ml-1.5 text-xs font-normal text-muted-foreground">(you)</span>}
            </p>
            <p className="truncate text-xs text-muted-foreground">{user.email}</p>
          </div>
        </div>
      </td>
      <td className="py-3 pr-4">
        <RoleBadge role={user.role} />
      </td>
      <td className="py-3 pr-4 whitespace-nowrap text-muted-foreground">
        {user.lastActive ? formatDate(user.lastActive) : 'Never'}
      </td>
      <td className="py-3 pr-4">
        <div className="flex justify-end gap-1">
          <Button variant="ghost" size="icon" aria-label={`Edit ${user.username}`} title="Change role" onClick={onEdit}>
            <Pencil aria-hidden />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Remove ${user.username}`}
            title={isSelf ? 'You cannot remove yourself' : 'Remove user'}
            disabled={isSelf}
            onClick={onRemove}
            className="text-destructive hover:bg-red-50 hover:text-destructive"
          >
            <Trash2 aria-hidden />
          </Button>
        </div>
      </td>
    </tr>
  );
}

/** SPEC "Users & Roles": everyone in the organization, their role and last activity; invite, edit, remove. */
export function UsersTab() {
  const users = useAdminUsers();
  const me = useMe();
  const removeUser = useRemoveUser();
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<AdminUserRow | null>(null);
  const [removing, setRemoving] = useState<AdminUserRow | null>(null);

  const confirmRemove = (user: AdminUserRow) => {
    setRemoving(null);
    removeUser.mutate(user.id, {
      onSuccess: () =>
        toast({ title: 'User removed', description: `${user.username} no longer has access.`, variant: 'success' }),
      onError: (error) =>
        toast({
          title: 'Error',
          description: errorMessage(error, 'Failed to remove the user'),
          variant: 'destructive',
        }),
    });
  };

  return (
    <div className="grid gap-6">
      <SectionHeader
        title="Users & Roles"
        description="Manage user access and permissions across your organization."
        actions={
          <Button onClick={() => setInviting(true)}>
            <UserPlus aria-hidden />
            Add User
          </Button>
        }
      />
      {users.isPending ? (
        <p className="py-8 text-center text-sm text-muted-foreground" role="status">
          Loading users...
        </p>
      ) : users.isError ? (
        <LoadError error={users.error} fallback="Could not load the users." onRetry={() => void users.refetch()} />
      ) : (
        <section className="rounded-xl border bg-background" aria-labelledby="active-users-title">
          <h4 id="active-users-title" className="border-b px-4 py-3 text-sm font-semibold">
            Active Users ({users.data.length})
          </h4>
          <div className="overflow-x-auto">
            <table className="w-full text-sm" aria-labelledby="active-users-title">
              <thead>
                <tr className="border-b bg-surface text-left text-xs font-medium text-muted-foreground">
                  <th scope="col" className="py-2 pr-4 pl-4 font-medium">
                    User
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Role
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Last Active
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right font-medium">
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.data.map((user) => (
                  <UserRow
                    key={user.id}
                    user={user}
                    isSelf={user.id === me.data?.user.id}
                    onEdit={() => setEditing(user)}
                    onRemove={() => setRemoving(user)}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      <PendingInvitations />
      <InviteUserDialog open={inviting} onOpenChange={setInviting} />
      <EditUserDialog user={editing} onClose={() => setEditing(null)} />
      <RemoveUserDialog user={removing} onCancel={() => setRemoving(null)} onConfirm={confirmRemove} />
    </div>
  );
}
