import { useState, type ReactNode } from 'react';
import { Controller, useForm, type UseFormSetError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound, LoaderCircle } from 'lucide-react';
import { SSO_DEFAULT_ROLES, SSO_DEFAULTS, UpdateSsoBody, type SsoSettingsView } from '../../../../common/schemas/sso';
import { ROLE_DESCRIPTIONS, RoleSelect } from '../../../components/people/role-select';
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
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CopyField } from '../../../components/ui/copy-field';
import { Field } from '../../../components/ui/field';
import { LoadError } from '../../../components/ui/load-error';
import { TextField } from '../../../components/ui/text-field';
import { TokenListInput } from '../../../components/ui/token-list-input';
import { toast, toastError } from '../../../components/ui/use-toast';
import { isApiRequestError } from '../../../lib/api';
import { serverFieldError } from '../../../lib/field-errors';
import { useSsoSettings } from '../api/get-sso-settings';
import { useRemoveSsoSettings, useSaveSsoSettings } from '../api/save-sso-settings';
import { ssoFormValues, type SsoFormValues } from '../sso-form-values';
import { listFieldError, parseDomainTokens } from '../sso-domains';
import { ScimSection } from './scim-section';
import { SectionHeader } from './section-header';
import { SsoDomainVerification } from './sso-domain-verification';
import { SsoGroupRolesField } from './sso-group-roles-field';
import { SsoRequiredField } from './sso-required-field';

const FIELDS = [
  'issuer',
  'clientId',
  'clientSecret',
  'domains',
  'defaultRole',
  'groupsClaim',
  'groupRoles',
  'breakGlassUserId',
] as const satisfies ReadonlyArray<keyof SsoFormValues>;

/** Refusals of a domain the server alone can judge: public, verified elsewhere, or used by another organization. */
const DOMAIN_REFUSALS = new Set(['domain_taken', 'domain_public', 'domain_in_use']);

/**
 * Puts a refused save's sentence under the field it is about: a domain the organization may not claim, or what
 * only the server can check (the break-glass admin). False when the error names no field.
 */
function showOnField(error: unknown, setError: UseFormSetError<SsoFormValues>): boolean {
  if (isApiRequestError(error) && DOMAIN_REFUSALS.has(error.code ?? '')) {
    setError('domains', { message: error.message }, { shouldFocus: true });
    return true;
  }
  let shown = false;
  for (const field of FIELDS) {
    const message = serverFieldError(error, field);
    if (message) {
      setError(field, { message }, { shouldFocus: !shown });
      shown = true;
    }
  }
  return shown;
}

function FormSection({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <section className="grid gap-5 border-t pt-5 first:border-t-0 first:pt-0" aria-label={title}>
      <div>
        <h4 className="text-sm font-semibold">{title}</h4>
        <p className="mt-1 text-xs text-muted-foreground">{description}</p>
      </div>
      {children}
    </section>
  );
}

function SsoForm({ settings }: { settings: SsoSettingsView }) {
  const save = useSaveSsoSettings();
  const remove = useRemoveSsoSettings();
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const configured = settings.issuer !== null;
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isDirty },
  } = useForm<SsoFormValues, unknown, UpdateSsoBody>({
    resolver: zodResolver(UpdateSsoBody),
    defaultValues: ssoFormValues(settings),
  });

  const onSubmit = handleSubmit((values) => {
    const { clientSecret, ...rest } = values;
    save.mutate(
      // An empty secret box keeps the stored secret.
      { ...rest, ...(clientSecret ? { clientSecret } : {}) },
      {
        onSuccess: (saved) => {
          reset(ssoFormValues(saved));
          toast({
            title: 'SSO settings saved',
            description: clientSecret
              ? 'The client secret is stored encrypted and will not be shown again.'
              : undefined,
            variant: 'success',
          });
        },
        onError: (error) => {
          if (!showOnField(error, setError)) toastError(error, 'Failed to save SSO settings');
        },
      },
    );
  });

  const confirmRemove = () => {
    setConfirmingRemove(false);
    remove.mutate(undefined, {
      onSuccess: (cleared) => {
        reset(ssoFormValues(cleared));
        toast({ title: 'SSO settings removed', variant: 'success' });
      },
      onError: (error) => toastError(error, 'Failed to remove SSO settings'),
    });
  };

  const domains = watch('domains');
  const defaultRole = watch('defaultRole');

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid max-w-2xl gap-6">
      <FormSection
        title="Identity provider"
        description="Register Verity at your OpenID Connect provider as a web application, then enter what it gives you."
      >
        <div className="flex flex-wrap items-center gap-2" aria-label="SSO status">
          <Badge variant={configured ? 'success' : 'secondary'}>{configured ? 'Configured' : 'Not configured'}</Badge>
          {settings.hasClientSecret && (
            <Badge variant="outline">
              <KeyRound aria-hidden />
              Client secret stored
            </Badge>
          )}
          {settings.ssoRequired && <Badge variant="outline">SSO required</Badge>}
        </div>
        <div className="grid gap-1.5">
          <CopyField
            id="sso-redirect-uri"
            label="Redirect URI"
            value={settings.redirectUri}
            failureHint="Select the address and copy it."
          />
          <p className="text-xs text-muted-foreground">
            Register this address at your identity provider as the redirect (callback) URI.
          </p>
        </div>
        <TextField
          label="Issuer URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://login.example.com"
          hint="Your identity provider's OpenID Connect issuer (https; plain http only for a provider on this machine)."
          error={errors.issuer?.message}
          {...register('issuer')}
        />
        <TextField
          label="Client ID"
          autoComplete="off"
          spellCheck={false}
          error={errors.clientId?.message}
          {...register('clientId')}
        />
        <TextField
          label="Client Secret"
          type="password"
          autoComplete="new-password"
          placeholder={settings.hasClientSecret ? '•••••••• stored — leave empty to keep it' : ''}
          hint={
            settings.hasClientSecret
              ? 'A secret is stored and is never shown again. Type a new one only to replace it.'
              : 'Stored encrypted and never shown again after saving.'
          }
          error={errors.clientSecret?.message}
          {...register('clientSecret')}
        />
      </FormSection>

      <FormSection
        title="Who signs in"
        description="People find your organization on the login page by their work e-mail's domain; their first sign-in creates their account."
      >
        <Controller
          control={control}
          name="domains"
          render={({ field }) => (
            <TokenListInput
              label="E-mail domains"
              value={field.value ?? []}
              onChange={(tokens) => field.onChange(parseDomainTokens(tokens))}
              maxLength={253}
              maxCount={20}
              placeholder="example.com"
              hint="Your organization's own domains (not public ones such as gmail.com). Addresses there sign in here once the domain is verified. Press Enter after each, or paste a list."
              error={listFieldError(errors.domains, domains ?? [])}
            />
          )}
        />
        <SsoDomainVerification claims={settings.domainClaims} />
        <Controller
          control={control}
          name="defaultRole"
          render={({ field }) => (
            <Field
              label="Default role for new SSO users"
              hint={`${ROLE_DESCRIPTIONS[defaultRole ?? SSO_DEFAULTS.defaultRole]} Given at the first sign-in unless a group mapping or an invitation says otherwise.`}
            >
              {(fieldControl) => (
                <RoleSelect
                  {...fieldControl}
                  roles={SSO_DEFAULT_ROLES}
                  value={field.value ?? SSO_DEFAULTS.defaultRole}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                />
              )}
            </Field>
          )}
        />
        <TextField
          label="Groups claim"
          autoComplete="off"
          spellCheck={false}
          hint="The ID-token claim that lists a person's groups (usually groups)."
          error={errors.groupsClaim?.message}
          {...register('groupsClaim')}
        />
        <SsoGroupRolesField control={control} errors={errors.groupRoles} />
      </FormSection>

      <FormSection title="Passwords" description="Whether people may still sign in with a Verity password.">
        <SsoRequiredField control={control} breakGlassError={errors.breakGlassUserId} />
      </FormSection>

      <div className="flex flex-wrap items-center gap-3 border-t pt-5">
        <Button type="submit" disabled={save.isPending || !isDirty}>
          {save.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          Save SSO Settings
        </Button>
        {isDirty && (
          <Button variant="outline" onClick={() => reset(ssoFormValues(settings))} disabled={save.isPending}>
            Discard Changes
          </Button>
        )}
        {configured && (
          <Button
            variant="ghost"
            className="text-destructive sm:ml-auto"
            onClick={() => setConfirmingRemove(true)}
            disabled={remove.isPending}
          >
            Remove configuration
          </Button>
        )}
      </div>
      <AlertDialog open={confirmingRemove} onOpenChange={setConfirmingRemove}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Remove the SSO configuration?</AlertDialogTitle>
            <AlertDialogDescription>
              The issuer, client ID, stored client secret, e-mail domains and sign-in rules are deleted, and everyone
              signs in with a password again. To use SSO later, enter them again.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={confirmRemove}>Remove</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </form>
  );
}

/** PRODUCT "SSO Settings": the organization's OpenID Connect provider and who signs in through it. */
export function SsoTab() {
  const settings = useSsoSettings();
  return (
    <div className="grid gap-6">
      <SectionHeader title="SSO Settings" description="Configure OIDC/SAML authentication for your organization." />
      {settings.isPending ? (
        <p className="py-8 text-center text-sm text-muted-foreground" role="status">
          Loading SSO settings...
        </p>
      ) : settings.isError ? (
        <LoadError
          error={settings.error}
          fallback="Could not load the SSO settings."
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <SsoForm settings={settings.data} />
      )}
      <ScimSection />
    </div>
  );
}
