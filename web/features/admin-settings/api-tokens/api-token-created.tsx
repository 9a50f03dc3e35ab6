import { KeyRound, TriangleAlert } from 'lucide-react';
import type { CreatedApiToken } from '../../../../common/schemas/api-tokens';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { CopyField } from '../../../components/ui/copy-field';
import { formatDate, formatLabel } from '../../../lib/format';

interface ApiTokenCreatedProps {
  token: CreatedApiToken;
  onDone: () => void;
}

/** The one time the whole token is on screen: copy it, see how to send it, and close. */
export function ApiTokenCreated({ token, onDone }: ApiTokenCreatedProps) {
  // Two lines, as a shell reads them, so neither the header nor the address is broken mid-word.
  const example = `curl -H "Authorization: Bearer vrt_…" \\\n  ${window.location.origin}/api/canonical-answers`;

  return (
    <>
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <KeyRound className="size-5 text-success" aria-hidden />
          API token created
        </DialogTitle>
        <DialogDescription>
          {token.name} acts as {formatLabel(token.role)} in this organization
          {token.expiresAt ? ` until ${formatDate(token.expiresAt)}` : ', with no expiry'}.
        </DialogDescription>
      </DialogHeader>
      <Alert className="border-amber-200 bg-amber-50 text-amber-900">
        <TriangleAlert aria-hidden />
        <AlertDescription>Copy this token now. You will not be able to see it again.</AlertDescription>
      </Alert>
      <CopyField
        id="api-token-value"
        label="API token"
        value={token.token}
        failureHint="Select the token and copy it yourself."
        inputClassName="bg-surface"
      />
      <div className="grid gap-1.5">
        <p className="text-sm font-medium">Use it</p>
        <pre className="overflow-x-auto rounded-md border bg-surface px-3 py-2 font-mono text-xs leading-relaxed text-slate-700">
          {example}
        </pre>
        <p className="text-xs text-muted-foreground">
          Put the token in place of vrt_… and send it with every call. Keep it out of code and logs, like a password.
        </p>
      </div>
      <DialogFooter>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </>
  );
}
