import type { invitations, organizations, users } from '../../db/schema';
import type { InvitationView, OrganizationView } from '../../../common/schemas/organizations';
import type { AdminUserRow } from '../../../common/schemas/admin';
import { ROLES, normalizeRole, type Role } from '../../../common/roles';

export function presentOrganization(org: typeof organizations.$inferSelect): OrganizationView {
  return {
    id: org.id,
    name: org.name,
    slug: org.slug,
    brandName: org.brandName,
    brandProfile: org.brandProfile,
    createdAt: org.createdAt.toISOString(),
  };
}

/** Never the token: it was shown once, at creation. */
export function presentInvitation(i: typeof invitations.$inferSelect): InvitationView {
  const role = (ROLES as readonly string[]).includes(i.role) ? (i.role as Role) : 'viewer';
  return {
    id: i.id,
    email: i.email,
    role,
    expiresAt: i.expiresAt.toISOString(),
    acceptedAt: i.acceptedAt ? i.acceptedAt.toISOString() : null,
    createdAt: i.createdAt.toISOString(),
  };
}

export function presentAdminUser(u: typeof users.$inferSelect): AdminUserRow {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    role: normalizeRole(u.role),
    lastActive: u.lastActiveAt ? u.lastActiveAt.toISOString() : null,
  };
}
