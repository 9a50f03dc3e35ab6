import { useState } from 'react';
import { KeyRound, LoaderCircle, Plus, TriangleAlert } from 'lucide-react';
import type { CreatedScimToken, ScimTokenView } from '../../../../common/schemas/sso';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDeleteDialog } from '../../../components/ui/confirm-delete-dialog';
import { CopyField } from '../../../components/ui/copy-field';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { toast, toastError } from '../../../components/ui/use-toast';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useScimSettings } from '../api/get-scim-settings';
import { useCreateScimToken, useRevokeScimToken } from '../api/scim-tokens';

/** The token as the list shows it: its prefix, the secret part masked. */
const masked = (token: ScimTokenView) => `${token.prefix}…`;

/** The new token, on screen this once, with where it goes. */
function CreatedToken({ created, onDone }: { created: CreatedScimToken; onDone: () => void }) {
  return (
    <Alert className="border-amber-200 bg-amber-50 text-amber-900">
      <TriangleAlert aria-hidden />
      <AlertTitle>Copy this SCIM token now</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>You will not be able to see it again. Paste it into your identity provider as the API token (Bearer).</p>
        <CopyField
          id="scim-token-value"
          label="SCIM token"
          value={created.token}
          failureHint="Select the token and copy it yourself."
          inputClassName="bg-background"
        />
        <div>
          <Button variant="outline" size="sm" onClick={onDone}>
            Done
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}

function TokenRow({ token, revoking, onRevoke }: { token: ScimTokenView; revoking: boolean; onRevoke: () => void }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-3 py-2.5">
      <div className="grid min-w-0 gap-0.5">
        <span className="font-mono text-xs">{masked(token)}</span>
        <span className="text-xs text-muted-foreground">
          Created {formatDate(token.createdAt)} ·{' '}
          {token.lastUsedAt ? `last used ${formatDateTime(token.lastUsedAt)}` : 'never used'}
        </span>
      </div>
      <Button variant="outline" size="sm" onClick={onRevoke} disabled={revoking} aria-label={`Revoke ${masked(token)}`}>
        {revoking && <LoaderCircle className="animate-spin" aria-hidden />}
        Revoke
      </Button>
    </li>
  );
}

/**
 * SCIM provisioning on the SSO tab: the base URL and a bearer token to give the identity provider (Okta, Entra ID),
 * which then creates, updates and deactivates the organization's people. A token is shown once; revoking one stops
 * the provider's calls at once, so it is confirmed.
 */
export function ScimSection() {
  const settings = useScimSettings();
  const create = useCreateScimToken();
  const revoke = useRevokeScimToken();
  const [created, setCreated] = useState<CreatedScimToken | null>(null);
  const [confirming, setConfirming] = useState<ScimTokenView | null>(null);

  const generate = () =>
    create.mutate(undefined, {
      onSuccess: (result) => setCreated(result),
      onError: (error) => toastError(error, 'Failed to generate a SCIM token'),
    });

  const revokeConfirmed = (token: ScimTokenView) => {
    setConfirming(null);
    revoke.mutate(token, {
      onSuccess: () =>
        toast({
          title: 'SCIM token revoked',
          description: `Calls with ${masked(token)} are refused from now on.`,
          variant: 'success',
        }),
      onError: (error) => toastError(error, 'Failed to revoke the SCIM token'),
    });
  };

  return (
    <section className="grid max-w-2xl gap-5 border-t pt-6" aria-labelledby="scim-section-title">
      <div>
        <h4 id="scim-section-title" className="flex items-center gap-2 text-sm font-semibold">
          <KeyRound className="size-4" aria-hidden />
          Provisioning (SCIM)
        </h4>
        <p className="mt-1 text-xs text-muted-foreground">
          Your identity provider can create, update and deactivate people here through SCIM 2.0. Deactivating someone
          ends their sessions and API tokens at once. Group memberships it pushes follow the group roles above.
        </p>
      </div>

      {settings.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading SCIM settings" />
        </div>
      ) : settings.isError ? (
        <LoadError
          error={settings.error}
          fallback="Could not load the SCIM settings."
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <>
          <CopyField id="scim-base-url" label="SCIM base URL" value={settings.data.baseUrl} />

          <div className="grid gap-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm font-medium">Tokens</p>
              <Button onClick={generate} disabled={create.isPending}>
                {create.isPending ? <LoaderCircle className="animate-spin" aria-hidden /> : <Plus aria-hidden />}
                Generate SCIM token
              </Button>
            </div>
            {created && <CreatedToken created={created} onDone={() => setCreated(null)} />}
            {settings.data.tokens.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                No SCIM token yet. Generate one and paste it into your identity provider with the base URL.
              </p>
            ) : (
              <ul className="divide-y rounded-md border" aria-label="SCIM tokens">
                {settings.data.tokens.map((token) => (
                  <TokenRow
                    key={token.id}
                    token={token}
                    revoking={revoke.isPending && revoke.variables?.id === token.id}
                    onRevoke={() => setConfirming(token)}
                  />
                ))}
              </ul>
            )}
          </div>
        </>
      )}

      <ConfirmDeleteDialog
        item={confirming}
        title="Revoke SCIM token"
        description={() =>
          'Revoke this token? Your identity provider can no longer provision people with it, from now on.'
        }
        details={(t) => <p className="rounded-md border bg-surface px-3 py-2 font-mono text-xs">{masked(t)}</p>}
        confirmLabel="Revoke token"
        onCancel={() => setConfirming(null)}
        onConfirm={revokeConfirmed}
      />
    </section>
  );
}
