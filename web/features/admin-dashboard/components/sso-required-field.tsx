import { useId } from 'react';
import { Controller, useWatch, type Control, type FieldError as FormFieldError } from 'react-hook-form';
import type { UpdateSsoBody } from '../../../../common/schemas/sso';
import { Field } from '../../../components/ui/field';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { Switch } from '../../../components/ui/switch';
import { useAdminUsers } from '../api/get-admin-users';
import type { SsoFormValues } from '../sso-form-values';

interface SsoRequiredFieldProps {
  control: Control<SsoFormValues, unknown, UpdateSsoBody>;
  breakGlassError: FormFieldError | undefined;
}

/**
 * "Require SSO" and the break-glass admin: while SSO is required, passwords stop working for everyone but one admin,
 * the way back in when the identity provider is down or misconfigured.
 */
export function SsoRequiredField({ control, breakGlassError }: SsoRequiredFieldProps) {
  const id = useId();
  const required = useWatch({ control, name: 'ssoRequired' });
  return (
    <div className="grid gap-4">
      <Controller
        control={control}
        name="ssoRequired"
        render={({ field }) => (
          <div className="flex items-start gap-3">
            <Switch
              id={`${id}-required`}
              ref={field.ref}
              checked={field.value ?? false}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              aria-describedby={`${id}-required-hint`}
              className="mt-0.5"
            />
            <div className="grid gap-1">
              <Label htmlFor={`${id}-required`}>Require SSO</Label>
              <p id={`${id}-required-hint`} className="text-xs text-muted-foreground">
                Passwords stop working for everyone in the organization except the break-glass admin: people sign in
                with “Sign in with SSO”, and password resets are refused.
              </p>
            </div>
          </div>
        )}
      />
      {required && (
        <Controller
          control={control}
          name="breakGlassUserId"
          render={({ field }) => (
            <Field
              label="Break-glass admin"
              hint="This admin can still sign in with a password, for when the identity provider is down or misconfigured."
              error={breakGlassError?.message}
            >
              {(fieldControl) => (
                <BreakGlassSelect
                  {...fieldControl}
                  selectRef={field.ref}
                  value={field.value ?? null}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                />
              )}
            </Field>
          )}
        />
      )}
    </div>
  );
}

interface BreakGlassSelectProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
  selectRef: (element: HTMLButtonElement | null) => void;
  value: string | null;
  onChange: (userId: string) => void;
  onBlur: () => void;
}

/** The organization's admins (the server also checks that the one chosen has a password). */
function BreakGlassSelect({ selectRef, value, onChange, onBlur, ...control }: BreakGlassSelectProps) {
  const users = useAdminUsers();
  const admins = (users.data ?? []).filter((u) => u.role === 'admin' || u.role === 'super_admin');
  const placeholder = users.isPending
    ? 'Loading admins...'
    : users.isError
      ? 'Could not load the admins'
      : 'Choose an admin';
  return (
    <Select value={value ?? ''} onValueChange={onChange} disabled={users.isPending || users.isError}>
      <SelectTrigger ref={selectRef} onBlur={onBlur} {...control}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {admins.map((admin) => (
          <SelectItem key={admin.id} value={admin.id}>
            {admin.username} ({admin.email})
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
