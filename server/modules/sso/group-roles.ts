import { ROLES, type Role } from '../../../common/roles';
import type { GroupRoleMapping } from '../../../common/schemas/sso';

/**
 * The role a person's groups give under the organization's mapping: the highest role of any mapped group they are in
 * (group names compare case-insensitively, as identity providers differ in case), or null when none is mapped.
 */
export function roleFromGroups(mapping: readonly GroupRoleMapping[], groups: readonly string[]): Role | null {
  const mine = new Set(groups.map((g) => g.toLowerCase()));
  let best = -1;
  for (const { group, role } of mapping) {
    if (mine.has(group.toLowerCase())) best = Math.max(best, ROLES.indexOf(role));
  }
  return best >= 0 ? (ROLES[best] ?? null) : null;
}
