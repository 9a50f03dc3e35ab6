import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Info, KeyRound, LoaderCircle } from 'lucide-react';
import { UpdateSsoBody, type SsoSettingsView, type UpdateSsoInput } from '../../../../common/schemas/sso';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
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
import { LoadError } from '../../../components/ui/load-error';
import { TextField } from '../../../components/ui/text-field';
import { toast, toastError } from '../../../components/ui/use-toast';
import { useSsoSettings } from '../api/get-sso-settings';
import { useRemoveSsoSettings, useSaveSsoSettings } from '../api/save-sso-settings';
import { SectionHeader } from './section-header';

const formValues = (settings: SsoSettingsView): UpdateSsoInput => ({
  issuer: settings.issuer ?? '',
  clientId: settings.clientId ?? '',
  // The stored secret never comes back: the box is for a new one only.
  clientSecret: '',
});

function SsoForm({ settings }: { settings: SsoSettingsView }) {
  const save = useSaveSsoSettings();
  const remove = useRemoveSsoSettings();
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const configured = settings.issuer !== null;
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<UpdateSsoInput, unknown, UpdateSsoBody>({
    resolver: zodResolver(UpdateSsoBody),
    defaultValues: formValues(settings),
  });

  const onSubmit = handleSubmit((values) => {
    save.mutate(
      {
        issuer: values.issuer,
        clientId: values.clientId,
        ...(values.clientSecret ? { clientSecret: values.clientSecret } : {}),
      },
      {
        onSuccess: (saved) => {
          reset(formValues(saved));
          toast({
            title: 'SSO settings saved',
            description: values.clientSecret
              ? 'The client secret is stored encrypted and will not be shown again.'
              : undefined,
            variant: 'success',
          });
        },
        onError: (error) => toastError(error, 'Failed to save SSO settings'),
      },
    );
  });

  const confirmRemove = () => {
    setConfirmingRemove(false);
    remove.mutate(undefined, {
      onSuccess: (cleared) => {
        reset(formValues(cleared));
        toast({ title: 'SSO settings removed', variant: 'success' });
      },
      onError: (error) => toastError(error, 'Failed to remove SSO settings'),
    });
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid max-w-xl gap-5">
      <div className="flex flex-wrap items-center gap-2" aria-label="SSO status">
        <Badge variant={configured ? 'success' : 'secondary'}>{configured ? 'Configured' : 'Not configured'}</Badge>
        {settings.hasClientSecret && (
          <Badge variant="outline">
            <KeyRound aria-hidden />
            Client secret stored
          </Badge>
        )}
      </div>
      <TextField
        label="Issuer URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://login.example.com"
        hint="Your identity provider's OpenID Connect issuer (https)."
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
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending || !isDirty}>
          {save.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          Save SSO Settings
        </Button>
        {configured && (
          <Button
            variant="ghost"
            className="text-destructive"
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
              The issuer, client ID and stored client secret are deleted. To use SSO later, enter them again.
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

/** PRODUCT "SSO Settings": the organization's OIDC provider. Signing in through it is not available yet. */
export function SsoTab() {
  const settings = useSsoSettings();
  return (
    <div className="grid gap-6">
      <SectionHeader title="SSO Settings" description="Configure OIDC/SAML authentication for your organization." />
      <Alert variant="info">
        <Info aria-hidden />
        <AlertTitle>Sign-in through SSO is not available yet</AlertTitle>
        <AlertDescription>
          You can store your OpenID Connect provider now; members keep signing in with their username and password until
          SSO sign-in is released.
        </AlertDescription>
      </Alert>
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
    </div>
  );
}
