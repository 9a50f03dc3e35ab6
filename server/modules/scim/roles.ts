import { and, eq, inArray } from 'drizzle-orm';
import { organizations, scimGroupMembers, scimGroups, users } from '../../db/schema';
import type { Tx } from '../../db/client';
import { writeAudit } from '../audit/service';
import { normalizeRole, type Role } from '../../../common/roles';
import { SSO_DEFAULTS, type SsoConfig } from '../../../common/schemas/sso';
import type { ScimCtx } from './auth';
import { roleFromGroups } from '../sso/group-roles';
import { isAdmin, isLastAdmin } from '../organizations/last-admin';

/**
 * The organization's SSO settings SCIM follows: the default role and the group→role mappings that decide roles, and
 * the break-glass admin (whose role and access SCIM leaves alone) with whether SSO is required.
 */
export async function ssoSettings(tx: Tx, organizationId: string) {
  const [org] = await tx
    .select({ sso: organizations.ssoConfig })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  const sso: SsoConfig | null = org?.sso ?? null;
  return {
    defaultRole: (sso?.defaultRole ?? SSO_DEFAULTS.defaultRole) as Role,
    groupRoles: sso?.groupRoles ?? SSO_DEFAULTS.groupRoles,
    ssoRequired: sso?.ssoRequired ?? SSO_DEFAULTS.ssoRequired,
    breakGlassUserId: sso?.breakGlassUserId ?? SSO_DEFAULTS.breakGlassUserId,
  };
}

/**
 * After a membership change, each affected user's role follows the organization's group→role mappings: the highest
 * role a mapped group of theirs gives, or the SSO default role if no group of theirs is mapped. An organization with
 * no mappings keeps roles as admins set them. A super admin is never changed; the break-glass admin (the
 * organization's way back in when SSO fails) and the last admin are never changed either: that change is skipped
 * and audited instead, as SSO sign-in skips it.
 */
export async function syncRoles(tx: Tx, ctx: ScimCtx, userIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return;
  const { defaultRole, groupRoles, breakGlassUserId } = await ssoSettings(tx, ctx.organizationId);
  if (groupRoles.length === 0) return;
  const people = await tx
    .select({ id: users.id, role: users.role, username: users.username })
    .from(users)
    .where(and(eq(users.organizationId, ctx.organizationId), inArray(users.id, ids)));
  const memberships = await tx
    .select({ userId: scimGroupMembers.userId, name: scimGroups.displayName })
    .from(scimGroupMembers)
    .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
    .where(and(eq(scimGroups.organizationId, ctx.organizationId), inArray(scimGroupMembers.userId, ids)));
  for (const person of people) {
    if (normalizeRole(person.role) === 'super_admin') continue;
    const groups = memberships.filter((m) => m.userId === person.id).map((m) => m.name);
    const role = roleFromGroups(groupRoles, groups) ?? defaultRole;
    if (role === person.role) continue;
    const audit = { organizationId: ctx.organizationId, userId: null, entityType: 'user', entityId: person.id };
    const details = { via: 'scim', tokenId: ctx.tokenId, username: person.username, from: person.role, to: role };
    const skip = async (reason: 'break_glass' | 'last_admin') =>
      writeAudit(tx, { ...audit, action: 'scim_role_change_skipped', details: { ...details, reason } });
    if (person.id === breakGlassUserId) {
      await skip('break_glass');
      continue;
    }
    if (isAdmin(person.role) && !isAdmin(role) && (await isLastAdmin(tx, ctx.organizationId, person.id))) {
      await skip('last_admin');
      continue;
    }
    await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, person.id));
    await writeAudit(tx, { ...audit, action: 'scim_user_role_changed', details });
  }
}
