import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type * as oidc from 'openid-client';
import { invitations, scimGroups, users } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { writeAudit } from '../audit/service';
import { insertUser } from '../auth/insert-user';
import { freeUsername } from '../auth/free-username';
import { withSsoDefaults } from './settings';
import { assertAddressOpenTo, verifiedDomainOwner } from './domains';
import { roleFromGroups } from './group-roles';
import { isAdmin, isLastAdmin } from '../organizations/last-admin';
import { Email } from '../../../common/schemas/auth';
import { normalizeRole, type Role } from '../../../common/roles';
import { emailDomain, type SsoConfig, type SsoErrorCode } from '../../../common/schemas/sso';

/** A sign-in the provider vouched for but Verity will not complete; the code tells the login page what to say. */
export class SsoRefusal extends Error {
  constructor(
    readonly code: SsoErrorCode,
    message: string,
  ) {
    super(message);
  }
}

type Org = { id: string; sso: SsoConfig };
type User = typeof users.$inferSelect;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

/** The groups claim as a list: providers send an array of names, some a single string. */
function groupsOf(claims: oidc.IDToken, claim: string): string[] | null {
  const value = claims[claim];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  if (typeof value === 'string') return [value];
  return null;
}

/**
 * The Verity user an ID token stands for, in the organization whose provider issued it:
 * 1. the account already linked to this issuer and subject;
 * 2. else, when the address is trusted (verified by the provider, or in one of the organization's verified SSO
 *    domains), the organization's account with that address, linked now unless it is linked to another subject of
 *    this provider;
 * 3. else a new account (just-in-time), in the role of a pending invitation for that address, or of the person's
 *    mapped groups, or the organization's default role; without an invitation, not for a person whose account here
 *    was deactivated.
 * An address held by another organization's account, or of a domain another organization verified, is refused
 * (no account is created for it). When groups are mapped and the token carries the groups claim, the role follows
 * the groups at every sign-in.
 */
export async function provisionFromClaims(tx: DbOrTx, org: Org, claims: oidc.IDToken): Promise<User> {
  const sso = withSsoDefaults(org.sso);
  const parsedEmail = Email.safeParse(text(claims.email));
  const email = parsedEmail.success ? parsedEmail.data : undefined;
  const groups = groupsOf(claims, sso.groupsClaim);
  const mapped = groups && sso.groupRoles.length > 0 ? roleFromGroups(sso.groupRoles, groups) : null;

  const [linked] = await tx
    .select()
    .from(users)
    .where(
      and(
        eq(users.organizationId, org.id),
        eq(users.ssoIssuer, claims.iss),
        eq(users.ssoSubject, claims.sub),
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  // With SCIM groups the provider pushes memberships, and SCIM sets roles: the claim (which some providers fill
  // with group ids rather than names) would undo them at every sign-in.
  const scimSetsRoles = await hasScimGroups(tx, org.id);
  const claimSetsRoles = groups !== null && sso.groupRoles.length > 0 && !scimSetsRoles;
  const follow = (user: User) => (claimSetsRoles ? syncRole(tx, org, user, mapped ?? sso.defaultRole) : user);
  if (linked) return follow(linked);
  if (!email) throw new SsoRefusal('sso_no_email', 'the ID token has no usable email claim');
  await assertTrustedAddress(tx, org.id, claims, email);
  const byEmail = await linkByEmail(tx, org, claims, email);
  if (byEmail) return follow(byEmail);
  // The provider vouching for the address is not enough: the domain's owner alone makes accounts of its people.
  await assertAddressOpenTo(
    tx,
    org.id,
    email,
    (domain) => new SsoRefusal('sso_domain_elsewhere', `${domain} is verified by another organization`),
  );
  return createFromClaims(tx, org, claims, email, (scimSetsRoles ? null : mapped) ?? sso.defaultRole);
}

async function hasScimGroups(tx: DbOrTx, organizationId: string): Promise<boolean> {
  const [any] = await tx
    .select({ id: scimGroups.id })
    .from(scimGroups)
    .where(eq(scimGroups.organizationId, organizationId))
    .limit(1);
  return !!any;
}

/**
 * An address is matched to an account (or given to a new one) only when the provider vouches for it
 * (`email_verified: true`) or it is in one of the organization's own verified SSO domains: otherwise whoever can
 * set their address at the provider could take over the account holding it, or hold another company's address here.
 * An unverified claim proves nothing, so it vouches for nothing.
 */
async function assertTrustedAddress(tx: DbOrTx, organizationId: string, claims: oidc.IDToken, email: string) {
  if (claims.email_verified === true) return;
  if ((await verifiedDomainOwner(tx, emailDomain(email))) !== organizationId) {
    throw new SsoRefusal('sso_unverified', `${email} is neither verified by the provider nor in a verified SSO domain`);
  }
}

async function linkByEmail(tx: DbOrTx, org: Org, claims: oidc.IDToken, email: string): Promise<User | undefined> {
  const [holder] = await tx
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.deletedAt)))
    .limit(1);
  if (!holder) return undefined;
  if (holder.organizationId !== org.id) {
    throw new SsoRefusal('sso_other_organization', `${email} belongs to another organization's account`);
  }
  // An account is one identity at this organization's provider: another subject with the same address (a second
  // account at the provider, or an address reassigned there) does not take it over.
  if (holder.ssoSubject !== null && holder.ssoIssuer === claims.iss && holder.ssoSubject !== claims.sub) {
    throw new SsoRefusal('sso_failed', `${email} is linked to another identity at this provider`);
  }
  const [linked] = await tx
    .update(users)
    .set({ ssoIssuer: claims.iss, ssoSubject: claims.sub, updatedAt: new Date() })
    .where(eq(users.id, holder.id))
    .returning();
  await writeAudit(tx, {
    organizationId: org.id,
    userId: holder.id,
    action: 'sso_account_linked',
    entityType: 'user',
    entityId: holder.id,
    details: { issuer: claims.iss, subject: claims.sub },
  });
  return linked;
}

/**
 * A person whose account here was deactivated (by SCIM or an admin) is not made a new one behind the admin's back:
 * they come back when the account is activated again or they are invited anew.
 */
async function refuseDeactivated(tx: DbOrTx, org: Org, claims: oidc.IDToken, email: string): Promise<void> {
  const [removed] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.organizationId, org.id),
        sql`${users.deletedAt} is not null`,
        sql`(lower(${users.email}) = ${email} or (${users.ssoIssuer} = ${claims.iss} and ${users.ssoSubject} = ${claims.sub}))`,
      ),
    )
    .limit(1);
  if (removed) throw new SsoRefusal('sso_deactivated', `user ${removed.id} is deactivated`);
}

async function createFromClaims(tx: DbOrTx, org: Org, claims: oidc.IDToken, email: string, role: Role) {
  const [invitation] = await tx
    .update(invitations)
    .set({ acceptedAt: new Date() })
    .where(
      and(
        eq(invitations.organizationId, org.id),
        sql`lower(${invitations.email}) = ${email}`,
        isNull(invitations.acceptedAt),
        gt(invitations.expiresAt, new Date()),
      ),
    )
    .returning();
  // A new invitation is the admin's word that the person may come back; without one a deactivation stands.
  if (!invitation) await refuseDeactivated(tx, org, claims, email);
  const finalRole = invitation ? normalizeRole(invitation.role) : role;
  const user = await insertUser(
    tx,
    org.id,
    {
      username: await freeUsername(tx, text(claims.preferred_username), email),
      email,
      passwordHash: null,
      firstName: text(claims.given_name)?.slice(0, 100),
      lastName: text(claims.family_name)?.slice(0, 100),
      source: 'sso',
      ssoIssuer: claims.iss,
      ssoSubject: claims.sub,
    },
    finalRole,
  );
  if (invitation) await tx.update(invitations).set({ acceptedBy: user.id }).where(eq(invitations.id, invitation.id));
  await writeAudit(tx, {
    organizationId: org.id,
    userId: user.id,
    action: 'sso_user_created',
    entityType: 'user',
    entityId: user.id,
    details: { role: finalRole, issuer: claims.iss, ...(invitation && { invitationId: invitation.id }) },
  });
  return user;
}

async function syncRole(tx: DbOrTx, org: Org, user: User, role: Role): Promise<User> {
  if (normalizeRole(user.role) === role) return user;
  const sso = withSsoDefaults(org.sso);
  // The break-glass admin's role is the organization's way back in; the last admin keeps the organization managed.
  // A super admin's role is set by Verity's operators, never by groups (as with SCIM).
  if (user.id === sso.breakGlassUserId || user.role === 'super_admin') return user;
  if (!isAdmin(role) && (await isLastAdmin(tx, org.id, user.id))) return user;
  const [changed] = await tx
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning();
  await writeAudit(tx, {
    organizationId: org.id,
    userId: user.id,
    action: 'user_role_changed',
    entityType: 'user',
    entityId: user.id,
    details: { from: user.role, to: role, via: 'sso_groups' },
  });
  return changed ?? user;
}
