import { useState } from 'react';
import { LoaderCircle, Trash2, UserPlus } from 'lucide-react';
import type { Role } from '../../../../common/roles';
import type { UserView } from '../../../../common/schemas/auth';
import { useChangeUserRole } from '../../../app/people/change-user-role';
import { usePendingInvitations } from '../../../app/people/get-invitations';
import { useOrganizationUsers } from '../../../app/people/get-organization-users';
import { useUsersBeingRemoved } from '../../../app/people/remove-user';
import { InviteUserDialog } from '../../../app/people/invite-user-dialog';
import { PendingInvitationList } from '../../../app/people/pending-invitation-list';
import { RemoveUserDialog } from '../../../app/people/remove-user-dialog';
import { RoleBadge } from '../../../components/people/role-badge';
import { RoleSelect, isRole } from '../../../components/people/role-select';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { toast, toastError } from '../../../components/ui/use-toast';
import { formatDateTime, fullName, initials } from '../../../lib/format';
import { useCan } from '../../../app/me/use-can';

/** The specification Workspace Settings "User Management": every user with a role dropdown, Remove, and Invite user. */
export function UserManagement({ currentUserId }: { currentUserId: string }) {
  const users = useOrganizationUsers();
  const canInvite = useCan('invitations:manage');
  const roleMutation = useChangeUserRole();
  const beingRemoved = useUsersBeingRemoved();
  const [inviteOpen, setInviteOpen] = useState(false);
  const [removing, setRemoving] = useState<UserView | null>(null);

  const changeRole = (user: UserView, role: Role) => {
    if (role === user.role) return;
    roleMutation.mutate(
      { userId: user.id, role },
      {
        onSuccess: () => toast({ title: 'User role updated successfully', variant: 'success' }),
        onError: (error) => toastError(error, 'Failed to update user role'),
      },
    );
  };

  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
          <div className="grid gap-1.5">
            <CardTitle>Users{users.data ? ` (${users.data.length})` : ''}</CardTitle>
            <CardDescription>Everyone in your organization and what they may do.</CardDescription>
          </div>
          {canInvite && (
            <Button onClick={() => setInviteOpen(true)}>
              <UserPlus aria-hidden />
              Invite user
            </Button>
          )}
        </CardHeader>
        <CardContent>
          {users.isPending ? (
            <div className="flex justify-center py-10">
              <Spinner label="Loading users" />
            </div>
          ) : users.isError ? (
            <LoadError error={users.error} fallback="Could not load the users." onRetry={() => void users.refetch()} />
          ) : (
            <div className="overflow-x-auto rounded-lg border">
              <table className="w-full text-sm">
                <thead className="bg-surface text-left text-xs font-medium text-muted-foreground">
                  <tr>
                    <th scope="col" className="px-4 py-2.5 font-medium">
                      User
                    </th>
                    <th scope="col" className="w-44 px-4 py-2.5 font-medium">
                      Role
                    </th>
                    <th scope="col" className="px-4 py-2.5 font-medium">
                      Last Active
                    </th>
                    <th scope="col" className="px-4 py-2.5 text-right font-medium">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y">
                  {users.data.map((user) => (
                    <UserRow
                      key={user.id}
                      user={user}
                      isSelf={user.id === currentUserId}
                      roleBusy={roleMutation.isPending && roleMutation.variables.userId === user.id}
                      removeBusy={beingRemoved.includes(user.id)}
                      onRoleChange={(role) => changeRole(user, role)}
                      onRemove={() => setRemoving(user)}
                    />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </CardContent>
      </Card>

      {canInvite && <PendingInvitationsCard />}

      <InviteUserDialog open={inviteOpen} onOpenChange={setInviteOpen} />
      <RemoveUserDialog user={removing} onClose={() => setRemoving(null)} />
    </div>
  );
}

interface UserRowProps {
  user: UserView;
  isSelf: boolean;
  roleBusy: boolean;
  removeBusy: boolean;
  onRoleChange: (role: Role) => void;
  onRemove: () => void;
}

function UserRow({ user, isSelf, roleBusy, removeBusy, onRoleChange, onRemove }: UserRowProps) {
  const name = fullName(user);
  const roleId = `role-${user.id}`;
  return (
    <tr>
      <td className="px-4 py-3">
        <div className="flex items-center gap-3">
          <span
            aria-hidden
            className="flex size-9 shrink-0 items-center justify-center rounded-full bg-accent text-xs font-semibold text-accent-foreground"
          >
            {initials(user)}
          </span>
          <div className="min-w-0">
            <p className="flex items-center gap-2 truncate font-medium">
              {user.username}
              {isSelf && <Badge variant="outline">You</Badge>}
            </p>
            <p className="truncate text-xs text-muted-foreground">
              {name ? `${name} · ` : ''}
              {user.email}
            </p>
          </div>
        </div>
      </td>
      <td className="px-4 py-3">
        {isRole(user.role) ? (
          <div className="flex items-center gap-2">
            <label htmlFor={roleId} className="sr-only">
              Role of {user.username}
            </label>
            <RoleSelect id={roleId} value={user.role} onChange={onRoleChange} disabled={roleBusy} className="h-8" />
            {roleBusy && <LoaderCircle className="size-4 animate-spin text-muted-foreground" aria-label="Saving" />}
          </div>
        ) : (
          // A super admin is managed outside the organization's own roles.
          <RoleBadge role={user.role} />
        )}
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-muted-foreground">
        {user.lastActive ? formatDateTime(user.lastActive) : 'Never'}
      </td>
      <td className="px-4 py-3 text-right">
        <Button
          variant="ghost"
          size="sm"
          className="text-destructive hover:bg-red-50 hover:text-destructive"
          onClick={onRemove}
          disabled={isSelf || removeBusy}
          title={isSelf ? 'You cannot remove yourself. Ask another admin to do it.' : undefined}
          aria-label={`Remove ${user.username}`}
        >
          {removeBusy ? <LoaderCircle className="animate-spin" aria-hidden /> : <Trash2 aria-hidden />}
          Remove
        </Button>
      </td>
    </tr>
  );
}

/** The invitations not used yet, as a card under the users; nothing shows when there are none. */
function PendingInvitationsCard() {
  const invitations = usePendingInvitations();
  if (!invitations.data || invitations.data.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pending Invitations ({invitations.data.length})</CardTitle>
        <CardDescription>Sign-up links sent but not used yet.</CardDescription>
      </CardHeader>
      <CardContent>
        <PendingInvitationList invitations={invitations.data} className="rounded-lg border" />
      </CardContent>
    </Card>
  );
}
