import { LoaderCircle, MailX } from 'lucide-react';
import type { InvitationView } from '../../../common/schemas/organizations';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { toast, toastError } from '../../components/ui/use-toast';
import { cn } from '../../lib/cn';
import { formatDate } from '../../lib/format';
import { useRevokeInvitation } from './revoke-invitation';
import { RoleBadge } from '../../components/people/role-badge';

const isExpired = (invitation: InvitationView, now: number) => Date.parse(invitation.expiresAt) <= now;

/**
 * Invitations not used yet (from `usePendingInvitations`): who, which role, until when; each can be revoked. The
 * screen around it gives the heading and frame, so it sits in a card or a dashboard panel alike.
 */
export function PendingInvitationList({
  invitations,
  className,
}: {
  invitations: readonly InvitationView[];
  className?: string;
}) {
  const revokeMutation = useRevokeInvitation();
  const now = Date.now();

  const revoke = (invitation: InvitationView) => {
    revokeMutation.mutate(invitation.id, {
      onSuccess: () =>
        toast({
          title: 'Invitation revoked',
          description: `The link sent to ${invitation.email} no longer works.`,
          variant: 'success',
        }),
      onError: (error) => toastError(error, 'Failed to revoke invitation'),
    });
  };

  return (
    <ul className={cn('divide-y', className)} aria-label="Pending invitations">
      {invitations.map((invitation) => {
        const busy = revokeMutation.isPending && revokeMutation.variables === invitation.id;
        const expired = isExpired(invitation, now);
        return (
          <li key={invitation.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium">{invitation.email}</p>
              <p className="text-xs text-muted-foreground">
                Sent {formatDate(invitation.createdAt)} ·{' '}
                {expired ? 'expired' : `expires ${formatDate(invitation.expiresAt)}`}
              </p>
            </div>
            {expired && <Badge variant="destructive">Expired</Badge>}
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
  );
}
