import type { Role } from '../../../common/roles';
import { Field } from '../ui/field';
import { ROLE_DESCRIPTIONS, RoleSelect } from './role-select';

interface RoleFieldProps {
  value: Role;
  onChange: (role: Role) => void;
  onBlur?: () => void;
  id?: string;
}

/** The labelled role picker of the invite, edit-user and API-token forms: the chosen role's description is its hint. */
export function RoleField({ value, onChange, onBlur, id }: RoleFieldProps) {
  return (
    <Field label="Role" hint={ROLE_DESCRIPTIONS[value]} id={id}>
      {(control) => <RoleSelect {...control} value={value} onChange={onChange} onBlur={onBlur} />}
    </Field>
  );
}
