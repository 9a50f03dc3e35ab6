import { LoaderCircle, MailX } from 'lucide-react';
import type { InvitationView } from '../../../../common/schemas/organizations';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { useInvitations } from '../api/get-invitations';
import { useRevokeInvitation } from '../api/revoke-invitation';
import { RoleBadge } from './role-badge';

const isPending = (invitation: InvitationView) => invitation.acceptedAt === null;
const isExpired = (invitation: InvitationView, now: number) => Date.parse(invitation.expiresAt) <= now;

/** Invitations not used yet: who, which role, until when; each can be revoked. Nothing shows when there are none. */
export function PendingInvitations() {
  const invitations = useInvitations();
  const revokeMutation = useRevokeInvitation();
  const pending = invitations.data?.filter(isPending) ?? [];
  if (pending.length === 0) return null;
  const now = Date.now();

  const revoke = (invitation: InvitationView) => {
    revokeMutation.mutate(invitation.id, {
      onSuccess: () =>
        toast({
          title: 'Invitation revoked',
          description: `The link sent to ${invitation.email} no longer works.`,
          variant: 'success',
        }),
      onError: (error) =>
        toast({
          title: 'Error',
          description: errorMessage(error, 'Failed to revoke invitation'),
          variant: 'destructive',
        }),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Pending Invitations ({pending.length})</CardTitle>
        <CardDescription>Sign-up links sent but not used yet.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y rounded-lg border" aria-label="Pending invitations">
          {pending.map((invitation) => {
            const busy = revokeMutation.isPending && revokeMutation.variables === invitation.id;
            return (
              <li key={invitation.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{invitation.email}</p>
                  <p className="text-xs text-muted-foreground">
                    Sent {formatDate(invitation.createdAt)} ·{' '}
                    {isExpired(invitation, now) ? 'expired' : `expires ${formatDate(invitation.expiresAt)}`}
                  </p>
                </div>
                {isExpired(invitation, now) && <Badge variant="destructive">Expired</Badge>}
                <RoleBadge role={invitation.role} />
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => revoke(invitation)}
                  disabled={busy}
                  aria-label={`Revoke the invitation to ${invitation.email}`}
                >
                  {busy ? <LoaderCircle className="animate-spin" aria-hidden /> : <MailX aria-hidden />}
                  Revoke
                </Button>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
