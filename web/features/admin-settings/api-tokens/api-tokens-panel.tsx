import { useState } from 'react';
import { KeyRound, LoaderCircle, Plus } from 'lucide-react';
import type { ApiTokenView } from '../../../../common/schemas/api-tokens';
import { RoleBadge } from '../../../components/people/role-badge';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useApiTokens } from './api/get-api-tokens';
import { useApiTokensBeingRevoked } from './api/revoke-api-token';
import { CreateApiTokenDialog } from './create-api-token-dialog';
import { RevokeApiTokenDialog } from './revoke-api-token-dialog';
import { STATUS_BADGES, maskedToken, tokenStatus } from './token-status';

/**
 * Workspace Settings "API Tokens" (admins): the organization's tokens for scripts and integrations, how to create
 * one (its secret is shown once) and how to revoke one. Revoked and expired tokens stay listed, for the record.
 */
export function ApiTokensPanel() {
  const tokens = useApiTokens();
  const beingRevoked = useApiTokensBeingRevoked();
  const [createOpen, setCreateOpen] = useState(false);
  const [revoking, setRevoking] = useState<ApiTokenView | null>(null);
  // Once per render is precise enough for an Active/Expired badge counted in days.
  const now = Date.now();

  const createButton = (
    <Button onClick={() => setCreateOpen(true)}>
      <Plus aria-hidden />
      Create token
    </Button>
  );

  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="grid min-w-0 gap-1.5">
          <CardTitle>API Tokens{tokens.data && tokens.data.length > 0 ? ` (${tokens.data.length})` : ''}</CardTitle>
          <CardDescription>
            Scripts send a token as <code className="font-mono text-xs">Authorization: Bearer vrt_…</code>; it acts with
            its role, in this organization only.
          </CardDescription>
        </div>
        {tokens.data && tokens.data.length > 0 && createButton}
      </CardHeader>
      <CardContent>
        {tokens.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading API tokens" />
          </div>
        ) : tokens.isError ? (
          <LoadError
            error={tokens.error}
            fallback="Could not load the API tokens."
            onRetry={() => void tokens.refetch()}
          />
        ) : tokens.data.length === 0 ? (
          <EmptyState
            icon={<KeyRound aria-hidden />}
            title="No API tokens yet"
            description={
              <span className="block text-balance">
                Create one to let scripts and integrations call Verity&apos;s API.
              </span>
            }
            actions={createButton}
          />
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <table className="w-full text-sm" aria-label="API tokens">
              <thead className="bg-surface text-left text-xs font-medium text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2.5 font-medium">
                    Name
                  </th>
                  <th scope="col" className="px-3 py-2.5 font-medium">
                    Role
                  </th>
                  <th scope="col" className="px-3 py-2.5 font-medium">
                    Created
                  </th>
                  <th scope="col" className="px-3 py-2.5 font-medium">
                    Expires
                  </th>
                  <th scope="col" className="px-3 py-2.5 font-medium">
                    Last used
                  </th>
                  <th scope="col" className="px-3 py-2.5 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-3 py-2.5 text-right font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {tokens.data.map((token) => (
                  <ApiTokenRow
                    key={token.id}
                    token={token}
                    now={now}
                    busy={beingRevoked.includes(token.id)}
                    onRevoke={() => setRevoking(token)}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>

      <CreateApiTokenDialog open={createOpen} onOpenChange={setCreateOpen} />
      <RevokeApiTokenDialog token={revoking} onClose={() => setRevoking(null)} />
    </Card>
  );
}

interface ApiTokenRowProps {
  token: ApiTokenView;
  now: number;
  busy: boolean;
  onRevoke: () => void;
}

function ApiTokenRow({ token, now, busy, onRevoke }: ApiTokenRowProps) {
  const status = tokenStatus(token, now);
  const badge = STATUS_BADGES[status];
  const inactive = status !== 'active';
  return (
    <tr className={inactive ? 'text-muted-foreground' : undefined}>
      <td className="max-w-64 px-3 py-3">
        <p className={inactive ? 'truncate font-medium' : 'truncate font-medium text-foreground'} title={token.name}>
          {token.name}
        </p>
        <p className="font-mono text-xs text-muted-foreground">{maskedToken(token)}</p>
      </td>
      <td className="px-3 py-3">
        <RoleBadge role={token.role} />
      </td>
      <td className="px-3 py-3 whitespace-nowrap">
        <p>{formatDate(token.createdAt)}</p>
        <p className="text-xs text-muted-foreground">by {token.createdBy}</p>
      </td>
      <td className="px-3 py-3 whitespace-nowrap">{token.expiresAt ? formatDate(token.expiresAt) : 'Never'}</td>
      <td className="px-3 py-3 whitespace-nowrap">
        {/* The date alone keeps the table within the page; the exact time is one hover away. */}
        {token.lastUsedAt ? (
          <span title={formatDateTime(token.lastUsedAt)}>{formatDate(token.lastUsedAt)}</span>
        ) : (
          'Never used'
        )}
      </td>
      <td className="px-3 py-3">
        <Badge
          variant={badge.variant}
          title={token.revokedAt ? `Revoked ${formatDateTime(token.revokedAt)}` : undefined}
        >
          {badge.label}
        </Badge>
      </td>
      <td className="px-3 py-3 text-right">
        {status === 'active' && (
          <Button
            variant="ghost"
            size="sm"
            className="text-destructive hover:bg-red-50 hover:text-destructive"
            onClick={onRevoke}
            disabled={busy}
            aria-label={`Revoke ${token.name}`}
          >
            {busy && <LoaderCircle className="animate-spin" aria-hidden />}
            Revoke
          </Button>
        )}
      </td>
    </tr>
  );
}
