import { Badge, type BadgeVariant } from '../ui/badge';
import { formatLabel } from '../../lib/format';

/** PRODUCT §4 role badge colours: admin green, manager amber, contributor teal, others grey (super admin counts as admin). */
const ROLE_VARIANTS: Partial<Record<string, BadgeVariant>> = {
  admin: 'success',
  super_admin: 'success',
  manager: 'warning',
  contributor: 'info',
};

export function RoleBadge({ role }: { role: string }) {
  return <Badge variant={ROLE_VARIANTS[role] ?? 'secondary'}>{formatLabel(role)}</Badge>;
}
