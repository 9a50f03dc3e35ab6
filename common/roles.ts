/** Roles a user can hold in an organization. `super_admin` exists in data but is granted like admin. */
export const ROLES = ['viewer', 'contributor', 'manager', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export type StoredRole = Role | 'super_admin';

/** PRODUCT §4: admin, manager and super_admin count as admin-level in the sidebar. */
export function isAdminLevel(role: string): boolean {
  return role === 'admin' || role === 'manager' || role === 'super_admin';
}

/** PRODUCT §4: an unknown role is treated as viewer. */
export function normalizeRole(role: string | null | undefined): StoredRole {
  if (role === 'super_admin') return 'super_admin';
  return (ROLES as readonly string[]).includes(role ?? '') ? (role as Role) : 'viewer';
}
