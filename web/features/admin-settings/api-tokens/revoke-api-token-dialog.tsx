import type { ApiTokenView } from '../../../../common/schemas/api-tokens';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';
import { toast, toastError } from '../../../components/ui/use-toast';
import { useRevokeApiToken } from './api/revoke-api-token';
import { maskedToken } from './token-status';

interface RevokeApiTokenDialogProps {
  /** The token to confirm the revocation of; null keeps the dialog closed. */
  token: ApiTokenView | null;
  onClose: () => void;
}

/**
 * Revoking deletes nothing (the token stays listed as Revoked), but scripts break at once, so it is confirmed. The
 * dialog closes on confirmation and the row shows the progress.
 */
export function RevokeApiTokenDialog({ token, onClose }: RevokeApiTokenDialogProps) {
  const mutation = useRevokeApiToken();

  const revoke = (revoked: ApiTokenView) => {
    onClose();
    mutation.mutate(revoked, {
      onSuccess: () =>
        toast({
          title: 'Token revoked',
          description: `Calls with ${revoked.name} are refused from now on.`,
          variant: 'success',
        }),
      onError: (error) => toastError(error, 'Failed to revoke API token'),
    });
  };

  return (
    <ConfirmDeleteDialog
      item={token}
      title="Revoke API token"
      description={() => 'Revoke this token? Scripts using it stop working at once.'}
      details={(t) => (
        <p className="rounded-md border bg-surface px-3 py-2 text-sm">
          <span className="font-medium">{t.name}</span>{' '}
          <span className="font-mono text-xs text-muted-foreground">{maskedToken(t)}</span>
        </p>
      )}
      confirmLabel="Revoke token"
      onCancel={onClose}
      onConfirm={revoke}
    />
  );
}
