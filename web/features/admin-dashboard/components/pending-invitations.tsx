import { MailX } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { usePendingInvitations } from '../api/get-invitations';
import { useRevokeInvitation } from '../api/revoke-invitation';
import { RoleBadge } from './role-badge';

/** Invitations sent and not yet used; revoking one makes its link stop working. Hidden when there are none. */
export function PendingInvitations() {
  const invitations = usePendingInvitations();
  const revoke = useRevokeInvitation();
  if (!invitations.data || invitations.data.length === 0) return null;
  const now = Date.now();

  return (
    <section className="rounded-xl border bg-background" aria-labelledby="pending-invitations-title">
      <h4 id="pending-invitations-title" className="border-b px-4 py-3 text-sm font-semibold">
        Pending Invitations ({invitations.data.length})
      </h4>
      <ul className="divide-y">
        {invitations.data.map((invitation) => {
          const expired = new Date(invitation.expiresAt).getTime() < now;
          return (
            <li key={invitation.id} className="flex flex-wrap items-center gap-3 px-4 py-2.5 text-sm">
              <span className="min-w-0 flex-1 truncate">{invitation.email}</span>
              <RoleBadge role={invitation.role} />
              {expired ? (
                <Badge variant="destructive">Expired</Badge>
              ) : (
                <span className="text-xs text-muted-foreground">Expires {formatDate(invitation.expiresAt)}</span>
              )}
              <Button
                variant="ghost"
                size="sm"
                disabled={revoke.isPending}
                onClick={() =>
                  revoke.mutate(invitation.id, {
                    onSuccess: () =>
                      toast({ title: 'Invitation revoked', description: invitation.email, variant: 'success' }),
                    onError: (error) =>
                      toast({
                        title: 'Error',
                        description: errorMessage(error, 'Failed to revoke the invitation'),
                        variant: 'destructive',
                      }),
                  })
                }
              >
                <MailX aria-hidden />
                Revoke
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
