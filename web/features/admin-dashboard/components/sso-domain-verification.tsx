import { BadgeCheck, LoaderCircle } from 'lucide-react';
import type { SsoDomainView } from '../../../../common/schemas/sso-domains';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CopyField } from '../../../components/ui/copy-field';
import { toast, toastError } from '../../../components/ui/use-toast';
import { formatDate } from '../../../lib/format';
import { useVerifySsoDomain } from '../api/verify-sso-domain';

/** A field id from a domain: its dots would read as class selectors in tests and styles. */
const idFor = (domain: string, part: string) => `sso-domain-${domain.replace(/[^a-z0-9-]/g, '-')}-${part}`;

function DomainRow({ claim }: { claim: SsoDomainView }) {
  const verify = useVerifySsoDomain();
  const onVerify = () =>
    verify.mutate(claim.domain, {
      onSuccess: () =>
        toast({
          title: `${claim.domain} verified`,
          description: 'Its people now find your organization by their e-mail.',
          variant: 'success',
        }),
      onError: (error) => toastError(error, `Could not verify ${claim.domain}`),
    });

  return (
    <li className="grid gap-3 px-3 py-3" aria-label={claim.domain}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 break-all text-sm font-medium">{claim.domain}</span>
        {claim.verified ? (
          <Badge variant="success">
            <BadgeCheck aria-hidden />
            Verified{claim.verifiedAt ? ` ${formatDate(claim.verifiedAt)}` : ''}
          </Badge>
        ) : (
          <Badge variant="warning">Not verified</Badge>
        )}
      </div>
      {!claim.verified && (
        <>
          <p className="text-xs text-muted-foreground">
            Add this TXT record at your DNS host (or the same value as a TXT record on {claim.domain} itself), then
            press Verify. Until then nobody is sent to your identity provider from this domain.
          </p>
          <CopyField
            id={idFor(claim.domain, 'name')}
            label="TXT record name"
            value={claim.record.name}
            failureHint="Select the name and copy it."
          />
          <CopyField
            id={idFor(claim.domain, 'value')}
            label="TXT record value"
            value={claim.record.value}
            failureHint="Select the value and copy it."
          />
          <div>
            <Button variant="outline" size="sm" onClick={onVerify} disabled={verify.isPending}>
              {verify.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
              Verify {claim.domain}
            </Button>
          </div>
        </>
      )}
    </li>
  );
}

/**
 * The saved domains and their DNS verification. A domain routes sign-ins only once verified: the first organization
 * to publish its record holds it, so a claim of someone else's domain (or a public one) sends nobody anywhere.
 */
export function SsoDomainVerification({ claims }: { claims: SsoDomainView[] }) {
  if (claims.length === 0) return null;
  return (
    <div className="grid gap-1.5">
      <h5 className="text-sm font-medium" id="sso-domain-verification">
        Domain verification
      </h5>
      <ul className="divide-y rounded-md border" aria-labelledby="sso-domain-verification">
        {claims.map((claim) => (
          <DomainRow key={claim.domain} claim={claim} />
        ))}
      </ul>
      <p className="text-xs text-muted-foreground">A domain you add gets its record once the settings are saved.</p>
    </div>
  );
}
