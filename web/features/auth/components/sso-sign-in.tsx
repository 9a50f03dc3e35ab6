import { useForm } from 'react-hook-form';
import { Building2, LoaderCircle } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { errorMessage, isApiRequestError } from '../../../lib/api';
import { useDiscoverSso } from '../api/discover-sso';
import { readLastSsoLookup, saveLastSsoLookup, ssoLookupQuery, ssoStartHref } from '../sso-lookup';

const NOT_FOUND = 'No organization signs in with SSO for this address. Sign in with your password or ask your admin.';

interface SsoSignInProps {
  open: boolean;
  onOpen: () => void;
  /** Failures that are not about what was typed (too many attempts, server unreachable) go to the page's alert. */
  onError: (message: string | null) => void;
  /** Where to land after signing in. */
  returnTo: string | null;
}

/**
 * "Sign in with SSO": the organization is found by the work e-mail's domain or its short name, then the browser
 * goes to the server's start address (a navigation, not a fetch), which sends it on to the identity provider.
 */
export function SsoSignIn({ open, onOpen, onError, returnTo }: SsoSignInProps) {
  const discover = useDiscoverSso();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ defaultValues: { lookup: readLastSsoLookup() } });

  const onSubmit = handleSubmit((values) => {
    onError(null);
    const parsed = ssoLookupQuery(values.lookup);
    if (!parsed.ok) {
      setError('lookup', { message: parsed.message }, { shouldFocus: true });
      return;
    }
    discover.mutate(parsed.query, {
      onSuccess: (found) => {
        saveLastSsoLookup(values.lookup.trim());
        window.location.assign(ssoStartHref(found.startUrl, returnTo));
      },
      onError: (error) => {
        if (isApiRequestError(error) && (error.status === 404 || error.status === 400)) {
          // The server says which: no organization for the address's domain, or none by that short name.
          setError('lookup', { message: errorMessage(error, NOT_FOUND) }, { shouldFocus: true });
        } else {
          onError(errorMessage(error, 'Could not look up SSO sign-in'));
        }
      },
    });
  });

  const busy = discover.isPending || discover.isSuccess;

  return (
    <div className="grid gap-4">
      <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden>
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>
      {open ? (
        <form
          onSubmit={(event) => void onSubmit(event)}
          noValidate
          className="grid gap-3"
          aria-label="Sign in with SSO"
        >
          <TextField
            label="Work e-mail or organization"
            type="text"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            // The person asked for this box a moment ago: it is where they type next.
            autoFocus
            placeholder="you@company.com"
            hint="Your work e-mail address, or your organization's short name."
            error={errors.lookup?.message}
            {...register('lookup')}
          />
          <Button type="submit" variant="outline" className="w-full" disabled={busy}>
            {busy && <LoaderCircle className="animate-spin" aria-hidden />}
            {discover.isSuccess ? `Continuing to ${discover.data.organizationName}...` : 'Continue'}
          </Button>
        </form>
      ) : (
        <Button variant="outline" className="w-full" onClick={onOpen}>
          <Building2 aria-hidden />
          Sign in with SSO
        </Button>
      )}
    </div>
  );
}
