import type { ApiTokenView } from '../../../../common/schemas/api-tokens';
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
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useRevokeApiToken } from './api/revoke-api-token';
import { maskedToken } from './token-status';

interface RevokeApiTokenDialogProps {
  /** The token to confirm the revocation of; null keeps the dialog closed. */
  token: ApiTokenView | null;
  onClose: () => void;
}

/**
 * ConfirmDeleteDialog's pattern with Revoke wording: nothing is deleted (the token stays listed as Revoked), but
 * scripts break at once, so it is confirmed. The dialog closes on confirmation and the row shows the progress.
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
      onError: (error) =>
        toast({
          title: 'Error',
          description: errorMessage(error, 'Failed to revoke API token'),
          variant: 'destructive',
        }),
    });
  };

  return (
    <AlertDialog open={token !== null} onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Revoke API token</AlertDialogTitle>
          <AlertDialogDescription>Revoke this token? Scripts using it stop working at once.</AlertDialogDescription>
        </AlertDialogHeader>
        {token && (
          <p className="rounded-md border bg-surface px-3 py-2 text-sm">
            <span className="font-medium">{token.name}</span>{' '}
            <span className="font-mono text-xs text-muted-foreground">{maskedToken(token)}</span>
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={() => token && revoke(token)}>Revoke token</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
