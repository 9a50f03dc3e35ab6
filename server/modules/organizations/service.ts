import type { BrandProfile } from '../../../common/schemas/organizations';
import { and, asc, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { invitations, organizations, users } from '../../db/schema';
import { inTransaction, type DbOrTx, type Tx } from '../../db/client';
import type { AppDeps } from '../../deps';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { UserCtx } from '../../context';
import { hashToken, newToken } from '../../tokens';
import { audit } from '../audit/service';
import { deleteUserSessions } from '../auth/sessions';
import { revokeUserApiTokens } from '../api-tokens/service';
import { assertNotBreakGlass, assertSessionForAdminChange } from './admin-guards';
import { quotedName, SUBJECT_NAME_MAX } from '../../mail/quoted-name';
import { isUniqueViolation } from '../auth/unique-user';
import { assertAddressOpenTo } from '../sso/domains';
import { INVITATION_TTL_DAYS } from '../../../common/constants';
import type { CreateInvitationBody, UpdateOrganizationBody } from '../../../common/schemas/organizations';
import { normalizeRole, ROLES, type Role } from '../../../common/roles';
import { can } from '../../../common/policies';

/** Admin-level means "may manage users" in the policy table, so the two can never disagree. */
const isAdmin = (role: string) => can(normalizeRole(role), 'users:manage');

export async function getOrganization(ctx: UserCtx) {
  const [org] = await ctx.db.select().from(organizations).where(eq(organizations.id, ctx.organizationId));
  if (!org) throw notFound('Organization');
  return org;
}

const SLUG_TAKEN = 'This slug is already taken by another organization. Choose another one.';

export async function updateOrganization(ctx: UserCtx, input: UpdateOrganizationBody) {
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const [before] = await tx
        .select({ slug: organizations.slug })
        .from(organizations)
        .where(eq(organizations.id, ctx.organizationId))
        .for('update');
      if (!before) throw notFound('Organization');
      const slugChanged = input.slug !== undefined && input.slug !== before.slug;
      if (slugChanged && input.slug !== undefined) {
        const [taken] = await tx
          .select({ id: organizations.id })
          .from(organizations)
          .where(and(eq(organizations.slug, input.slug), ne(organizations.id, ctx.organizationId)))
          .limit(1);
        if (taken) throw conflict(SLUG_TAKEN);
      }
      const [org] = await tx
        .update(organizations)
        .set({
          ...(input.name !== undefined && { name: input.name }),
          ...(input.brandName !== undefined && { brandName: input.brandName || null }),
          ...(slugChanged && { slug: input.slug }),
          ...(input.brandProfile !== undefined && { brandProfile: input.brandProfile }),
          updatedAt: new Date(),
        })
        .where(eq(organizations.id, ctx.organizationId))
        .returning();
      if (!org) throw notFound('Organization');
      await audit({ ...ctx, db: tx }, 'organization_updated', 'organization', org.id, {
        fields: Object.keys(input),
      });
      if (slugChanged) {
        await audit({ ...ctx, db: tx }, 'organization_slug_changed', 'organization', org.id, {
          from: before.slug,
          to: org.slug,
        });
      }
      return org;
    });
  } catch (err) {
    // Two organizations claiming the same free slug at once: the unique index decides, the loser gets the sentence.
    if (isUniqueViolation(err)) throw conflict(SLUG_TAKEN);
    throw err;
  }
}

/** Live (not removed) users of the caller's organization. */
export function listUsers(ctx: UserCtx) {
  return ctx.db
    .select()
    .from(users)
    .where(and(eq(users.organizationId, ctx.organizationId), isNull(users.deletedAt)))
    .orderBy(asc(users.createdAt), asc(users.id));
}

/**
 * Locks the organization's admins and the target, so two concurrent demotions cannot both see
 * "another admin remains" and leave the organization without one.
 */
async function lockForAdminChange(tx: Tx, ctx: UserCtx, userId: string) {
  const rows = await tx
    .select({ id: users.id, role: users.role, username: users.username })
    .from(users)
    .where(and(eq(users.organizationId, ctx.organizationId), isNull(users.deletedAt)))
    .for('update');
  const target = rows.find((u) => u.id === userId);
  if (!target) throw notFound('User');
  if (target.role === 'super_admin' && ctx.role !== 'super_admin') {
    throw forbidden('Only a super admin can change or remove a super admin.');
  }
  const otherAdmins = rows.filter((u) => u.id !== userId && isAdmin(u.role)).length;
  return { target, otherAdmins };
}

export async function changeUserRole(ctx: UserCtx, userId: string, role: Role) {
  return inTransaction(ctx.db, async (tx) => {
    const { target, otherAdmins } = await lockForAdminChange(tx, ctx, userId);
    assertSessionForAdminChange(ctx, target.role, role);
    if (isAdmin(target.role) && !isAdmin(role) && otherAdmins === 0) {
      throw conflict('An organization must keep at least one admin. Make another user admin first.');
    }
    if (isAdmin(target.role) && !isAdmin(role)) await assertNotBreakGlass(tx, ctx, target);
    const [user] = await tx
      .update(users)
      .set({ role, updatedAt: new Date() })
      .where(and(eq(users.id, userId), eq(users.organizationId, ctx.organizationId)))
      .returning();
    if (!user) throw notFound('User');
    if (isAdmin(target.role) && !isAdmin(role)) await revokeInvitationsSentBy(tx, ctx, userId);
    await audit({ ...ctx, db: tx }, 'user_role_changed', 'user', userId, { from: target.role, to: role });
    return user;
  });
}

/**
 * A removed or demoted admin's pending invitations die with their rights: otherwise one could invite a second
 * address of their own and come back as admin after removal.
 */
async function revokeInvitationsSentBy(tx: Tx, ctx: UserCtx, userId: string) {
  await tx
    .delete(invitations)
    .where(
      and(
        eq(invitations.organizationId, ctx.organizationId),
        eq(invitations.invitedBy, userId),
        isNull(invitations.acceptedAt),
      ),
    );
}

/**
 * Removes access for good: sessions end, API tokens are revoked and the password is cleared, so that nothing the
 * person held works again even if the account is ever made live again. Only an admin's new invitation brings the
 * person back — never the identity provider (`removedByAdminAt`). The row stays so the audit trail keeps its names.
 */
export async function removeUser(ctx: UserCtx, userId: string) {
  await inTransaction(ctx.db, async (tx) => {
    const { target, otherAdmins } = await lockForAdminChange(tx, ctx, userId);
    // The last admin hears why the organization needs them before hearing that they cannot remove themselves.
    if (isAdmin(target.role) && otherAdmins === 0) {
      throw conflict('An organization must keep at least one admin. Make another user admin first.');
    }
    if (userId === ctx.userId) throw badRequest('You cannot remove yourself. Ask another admin to do it.');
    assertSessionForAdminChange(ctx, target.role);
    await assertNotBreakGlass(tx, ctx, target);
    const now = new Date();
    await tx
      .update(users)
      .set({ deletedAt: now, removedByAdminAt: now, passwordHash: null, updatedAt: now })
      .where(and(eq(users.id, userId), eq(users.organizationId, ctx.organizationId)));
    await deleteUserSessions(tx, userId);
    await revokeUserApiTokens(tx, { id: userId, organizationId: ctx.organizationId }, 'removed');
    await revokeInvitationsSentBy(tx, ctx, userId);
    await audit({ ...ctx, db: tx }, 'user_removed', 'user', userId, { username: target.username });
  });
}

/** The most an API token may invite: roles that cannot manage users, tokens or invitations. */
const TOKEN_INVITE_MAX: Role = 'contributor';
const rank = (role: string) => {
  const r = normalizeRole(role);
  return r === 'super_admin' ? ROLES.length : ROLES.indexOf(r);
};

/**
 * An invite link valid for 7 days and one sign-up, e-mailed to the invitee (or to the dev outbox). Nobody invites
 * above their own role. An API token invites at most a contributor and never sees the link: otherwise a leaked
 * token could mint a person-admin that outlives the token's revocation.
 */
export async function createInvitation(deps: AppDeps, ctx: UserCtx, input: CreateInvitationBody) {
  if (rank(input.role) > rank(ctx.role)) throw forbidden('You cannot invite someone with a higher role than yours.');
  if (ctx.apiTokenId && rank(input.role) > rank(TOKEN_INVITE_MAX)) {
    throw forbidden(
      'An API token can invite viewers and contributors only. Sign in to Verity to invite a manager or an admin.',
    );
  }
  const [existingUser] = await ctx.db
    .select({ organizationId: users.organizationId })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${input.email})`, isNull(users.deletedAt)))
    .limit(1);
  if (existingUser) {
    throw conflict(
      existingUser.organizationId === ctx.organizationId
        ? 'This person is already a member of your organization.'
        : 'An account with this email already exists.',
    );
  }
  await assertAddressOpenTo(ctx.db, ctx.organizationId, input.email);
  const token = newToken();
  const expiresAt = new Date(Date.now() + INVITATION_TTL_DAYS * 24 * 3600_000);
  const { invitation, orgName } = await inTransaction(ctx.db, async (tx) => {
    // Inviting the same address again replaces its pending invitation, so only the newest link (and role) works.
    const replaced = await tx
      .delete(invitations)
      .where(
        and(
          eq(invitations.organizationId, ctx.organizationId),
          sql`lower(${invitations.email}) = lower(${input.email})`,
          isNull(invitations.acceptedAt),
        ),
      )
      .returning({ id: invitations.id });
    const [row] = await tx
      .insert(invitations)
      .values({
        organizationId: ctx.organizationId,
        email: input.email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedBy: ctx.userId,
        apiTokenId: ctx.apiTokenId ?? null,
        expiresAt,
      })
      .returning();
    if (!row) throw new Error('insert returned no invitation');
    const [org] = await tx
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, ctx.organizationId));
    await audit({ ...ctx, db: tx }, 'invitation_created', 'invitation', row.id, {
      email: input.email,
      role: input.role,
      ...(replaced.length > 0 && { replacedInvitationIds: replaced.map((r) => r.id) }),
    });
    return { invitation: row, orgName: org?.name ?? 'your organization' };
  });
  const url = `${deps.config.publicUrl}/login?invite=${encodeURIComponent(token)}`;
  await deps.mailer.send({
    to: input.email,
    subject: `You're invited to ${quotedName(orgName, SUBJECT_NAME_MAX)} on Verity`,
    text:
      `${ctx.username} invited you to join an organization on Verity as ${input.role}.\n\n` +
      `Organization: ${quotedName(orgName, 200)}\n\n` +
      `Create your account with this link (valid for ${INVITATION_TTL_DAYS} days, usable once):\n\n${url}\n`,
  });
  return {
    id: invitation.id,
    email: invitation.email,
    role: input.role,
    ...(!ctx.apiTokenId && { token, url }),
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

export function listInvitations(ctx: UserCtx) {
  return ctx.db
    .select()
    .from(invitations)
    .where(eq(invitations.organizationId, ctx.organizationId))
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
}

export async function revokeInvitation(ctx: UserCtx, id: string) {
  await inTransaction(ctx.db, async (tx) => {
    const deleted = await tx
      .delete(invitations)
      .where(
        and(eq(invitations.id, id), eq(invitations.organizationId, ctx.organizationId), isNull(invitations.acceptedAt)),
      )
      .returning({ id: invitations.id });
    if (deleted.length === 0) throw notFound('Invitation');
    await audit({ ...ctx, db: tx }, 'invitation_revoked', 'invitation', id);
  });
}

/** The organization's brand profile (tone, rules, disclaimers, banned tokens), for the answer engine. */
export async function brandProfileOf(db: DbOrTx, organizationId: string): Promise<BrandProfile | undefined> {
  const [org] = await db
    .select({ brand: organizations.brandProfile })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return org?.brand;
}
