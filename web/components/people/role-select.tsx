import { ROLES, type Role } from '../../../common/roles';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../ui/select';
import { formatLabel } from '../../lib/format';

/** What each role may do, so the admin picks knowingly (the policy table in common/policies.ts decides). */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: 'Reads the library, documents and answers.',
  contributor: 'Also asks questions, uploads documents and drafts answers.',
  manager: 'Also approves answers, imports, deletes and manages workspaces.',
  admin: 'Also manages the organization, branding and users.',
};

/** One of the four roles an admin can give; `super_admin` is not among them. */
export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

interface RoleSelectProps {
  id?: string;
  value: Role;
  onChange: (role: Role) => void;
  onBlur?: () => void;
  disabled?: boolean;
  /** The roles offered, in order; all four by default. */
  roles?: readonly Role[];
  /** For the trigger, e.g. a smaller height in a table row. */
  className?: string;
  'aria-describedby'?: string;
  'aria-label'?: string;
}

/** The four roles an admin can give (PRODUCT §4). */
export function RoleSelect({
  id,
  value,
  onChange,
  onBlur,
  disabled,
  className,
  roles = ROLES,
  ...aria
}: RoleSelectProps) {
  return (
    <Select
      value={value}
      onValueChange={(next) => isRole(next) && roles.includes(next) && onChange(next)}
      disabled={disabled}
    >
      <SelectTrigger id={id} className={className} onBlur={onBlur} {...aria}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {roles.map((role) => (
          <SelectItem key={role} value={role}>
            {formatLabel(role)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
