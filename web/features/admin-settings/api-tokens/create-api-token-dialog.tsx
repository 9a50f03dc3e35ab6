import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound, LoaderCircle } from 'lucide-react';
import { CreateApiTokenBody, type CreatedApiToken } from '../../../../common/schemas/api-tokens';
import { RoleField } from '../../../components/people/role-field';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { TextField } from '../../../components/ui/text-field';
import { toastError } from '../../../components/ui/use-toast';
import { formatDate } from '../../../lib/format';
import { useCreateApiToken } from './api/create-api-token';
import { ApiTokenCreated } from './api-token-created';
import { EXPIRY_OPTIONS, expiryDaysOf, expiryOptionValue } from './expiry-options';

interface CreateApiTokenDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Names a token, picks its role and lifetime, then shows the new token once. */
export function CreateApiTokenDialog({ open, onOpenChange }: CreateApiTokenDialogProps) {
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const close = () => {
    // The secret leaves memory with the dialog: reopening starts a new token, never shows this one again.
    setCreated(null);
    onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent
        // Wide enough for the whole token on one line.
        className={created ? 'max-w-xl' : undefined}
        // A stray click beside the dialog must not throw away a token that cannot be shown again.
        onInteractOutside={(event) => created && event.preventDefault()}
      >
        {/* Mounted only while open, so each opening starts from an empty form. */}
        {open &&
          (created ? (
            <ApiTokenCreated token={created} onDone={close} />
          ) : (
            <CreateApiTokenForm onCreated={setCreated} onCancel={close} />
          ))}
      </DialogContent>
    </Dialog>
  );
}

const DEFAULT_TOKEN: CreateApiTokenBody = { name: '', role: 'viewer', expiresInDays: 90 };

function CreateApiTokenForm({
  onCreated,
  onCancel,
}: {
  onCreated: (token: CreatedApiToken) => void;
  onCancel: () => void;
}) {
  const mutation = useCreateApiToken();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(CreateApiTokenBody), defaultValues: DEFAULT_TOKEN });

  const onSubmit = handleSubmit((values) => {
    mutation.mutate(values, {
      onSuccess: onCreated,
      onError: (error) => toastError(error, 'Failed to create API token'),
    });
  });

  return (
    <>
      <DialogHeader>
        <DialogTitle>Create API token</DialogTitle>
        <DialogDescription>
          Scripts and integrations send the token to call Verity&apos;s API. It acts with the role you choose (never
          more than yours) in this organization only.
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
        <TextField
          label="Token name"
          autoComplete="off"
          placeholder="e.g. Nightly library export"
          hint="Say what uses it, so you know what stops working if you revoke it."
          error={errors.name?.message}
          {...register('name')}
        />
        <Controller
          control={control}
          name="role"
          render={({ field }) => (
            <RoleField id="api-token-role" value={field.value} onChange={field.onChange} onBlur={field.onBlur} />
          )}
        />
        <Controller
          control={control}
          name="expiresInDays"
          render={({ field }) => (
            <Field
              label="Expiry"
              id="api-token-expiry"
              hint={
                field.value
                  ? `Stops working on ${formatDate(Date.now() + field.value * 86_400_000)}.`
                  : 'Works until it is revoked.'
              }
            >
              {(ids) => (
                <Select
                  value={expiryOptionValue(field.value)}
                  onValueChange={(value) => field.onChange(expiryDaysOf(value))}
                >
                  <SelectTrigger {...ids} onBlur={field.onBlur}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {EXPIRY_OPTIONS.map((option) => (
                      <SelectItem key={option.value} value={option.value}>
                        {option.label}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            </Field>
          )}
        />
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? <LoaderCircle className="animate-spin" aria-hidden /> : <KeyRound aria-hidden />}
            Create token
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
