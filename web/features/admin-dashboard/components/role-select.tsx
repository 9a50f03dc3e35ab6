import { ROLES, type Role } from '../../../../common/roles';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { formatLabel } from '../../../lib/format';

/** What each role may do, in a few words, so the choice is an informed one. */
export const ROLE_SUMMARIES: Record<Role, string> = {
  viewer: 'Reads the library, documents and answers',
  contributor: 'Also asks questions, drafts answers and uploads',
  manager: 'Also approves answers, imports and manages workspaces',
  admin: 'Also manages users, roles and organization settings',
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

interface RoleSelectProps {
  id?: string;
  value: Role;
  onChange: (role: Role) => void;
  disabled?: boolean;
}

/** The four roles an admin can give (SPEC §6). */
export function RoleSelect({ id, value, onChange, disabled }: RoleSelectProps) {
  return (
    <Select value={value} onValueChange={(next) => isRole(next) && onChange(next)} disabled={disabled}>
      <SelectTrigger id={id}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {ROLES.map((role) => (
          <SelectItem key={role} value={role}>
            {formatLabel(role)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
