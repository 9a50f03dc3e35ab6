import { Controller, useFieldArray, type Control, type FieldErrors } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import type { UpdateSsoBody } from '../../../../common/schemas/sso';
import { RoleSelect } from '../../../components/people/role-select';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { FieldError } from '../../../components/ui/label';
import type { SsoFormValues } from '../sso-form-values';

/** UpdateSsoBody's limit. */
const MAX_MAPPINGS = 50;

interface SsoGroupRolesFieldProps {
  control: Control<SsoFormValues, unknown, UpdateSsoBody>;
  errors: FieldErrors<SsoFormValues>['groupRoles'];
}

/** Rows of identity-provider group → Verity role; the person's highest mapped role wins at each sign-in. */
export function SsoGroupRolesField({ control, errors }: SsoGroupRolesFieldProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'groupRoles' });
  const listError = errors?.message ?? errors?.root?.message;
  return (
    <fieldset className="grid gap-2">
      <legend className="text-sm leading-none font-medium">Group → role mappings</legend>
      <p className="mt-1.5 text-xs text-muted-foreground" id="sso-group-roles-hint">
        At each sign-in, a person in a mapped group gets its role (the highest one when several groups match); everyone
        else gets the default role. Group names match regardless of case.
      </p>
      {fields.length > 0 && (
        <ul className="grid gap-2" aria-label="Group mappings">
          {fields.map((field, index) => {
            const rowError = errors?.[index]?.group?.message ?? errors?.[index]?.role?.message;
            return (
              <li key={field.id} className="grid gap-1">
                <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-2 sm:grid-cols-[minmax(0,1fr)_10rem_auto]">
                  <Controller
                    control={control}
                    name={`groupRoles.${index}.group`}
                    render={({ field: group }) => (
                      <Input
                        {...group}
                        aria-label={`Group ${index + 1}`}
                        aria-invalid={rowError ? true : undefined}
                        placeholder="Group name, e.g. verity-admins"
                        autoComplete="off"
                        spellCheck={false}
                        className="col-span-2 sm:col-span-1"
                      />
                    )}
                  />
                  <Controller
                    control={control}
                    name={`groupRoles.${index}.role`}
                    render={({ field: role }) => (
                      <RoleSelect
                        value={role.value ?? 'viewer'}
                        onChange={role.onChange}
                        onBlur={role.onBlur}
                        aria-label={`Role for group ${index + 1}`}
                      />
                    )}
                  />
                  <Button
                    variant="ghost"
                    size="icon"
                    onClick={() => remove(index)}
                    aria-label={`Remove group ${index + 1}`}
                  >
                    <Trash2 aria-hidden />
                  </Button>
                </div>
                <FieldError>{rowError}</FieldError>
              </li>
            );
          })}
        </ul>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="outline"
          size="sm"
          onClick={() => append({ group: '', role: 'viewer' }, { shouldFocus: true })}
          disabled={fields.length >= MAX_MAPPINGS}
        >
          <Plus aria-hidden />
          Add group mapping
        </Button>
        <span className="text-xs text-muted-foreground">
          {fields.length}/{MAX_MAPPINGS}
        </span>
      </div>
      <FieldError>{listError}</FieldError>
    </fieldset>
  );
}
