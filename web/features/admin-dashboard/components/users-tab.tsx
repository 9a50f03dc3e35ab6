import { useState, type ReactNode } from 'react';
import { Pencil, Trash2, UserPlus } from 'lucide-react';
import type { AdminUserRow } from '../../../../common/schemas/admin';
import { usePendingInvitations } from '../../../app/people/get-invitations';
import { InviteUserDialog } from '../../../app/people/invite-user-dialog';
import { PendingInvitationList } from '../../../app/people/pending-invitation-list';
import { RemoveUserDialog } from '../../../app/people/remove-user-dialog';
import { RoleBadge } from '../../../components/people/role-badge';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { formatDate } from '../../../lib/format';
import { useMe } from '../../../app/me/get-me';
import { useAdminUsers } from '../api/get-admin-users';
import { EditUserDialog } from './edit-user-dialog';
import { SectionHeader } from './section-header';

/** PRODUCT: the first 2 letters of the e-mail's local part, upper-cased. */
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

/** One titled, bordered block of the Users & Roles section. */
function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="rounded-xl border bg-background" aria-labelledby={id}>
      <h4 id={id} className="border-b px-4 py-3 text-sm font-semibold">
        {title}
      </h4>
      {children}
    </section>
  );
}

/** PRODUCT "Users & Roles": everyone in the organization, their role and last activity; invite, edit, remove. */
export function UsersTab() {
  const users = useAdminUsers();
  const invitations = usePendingInvitations();
  const me = useMe();
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<AdminUserRow | null>(null);
  const [removing, setRemoving] = useState<AdminUserRow | null>(null);

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
        <Panel id="active-users-title" title={`Active Users (${users.data.length})`}>
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
        </Panel>
      )}
      {invitations.data && invitations.data.length > 0 && (
        <Panel id="pending-invitations-title" title={`Pending Invitations (${invitations.data.length})`}>
          <PendingInvitationList invitations={invitations.data} />
        </Panel>
      )}
      <InviteUserDialog title="Add User" open={inviting} onOpenChange={setInviting} />
      <EditUserDialog user={editing} onClose={() => setEditing(null)} />
      <RemoveUserDialog user={removing} onClose={() => setRemoving(null)} />
    </div>
  );
}
