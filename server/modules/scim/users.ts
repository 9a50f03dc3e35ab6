import { and, asc, count, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { invitations, passwordResets, scimGroupMembers, scimGroups, users } from '../../db/schema';
import { inTransaction, type DbOrTx, type Tx } from '../../db/client';
import { writeAudit } from '../audit/service';
import { deleteUserSessions } from '../auth/sessions';
import { assertUsernameAndEmailFree } from '../auth/unique-user';
import { freeUsername } from '../auth/free-username';
import { conflict } from '../../errors';
import { revokeUserApiTokens } from '../api-tokens/service';
import type { ScimListQuery, ScimPatchOperation, ScimUserBody } from '../../../common/schemas/scim';
import type { ScimCtx } from './auth';
import { invalidValue, ScimError, scimNotFound } from './errors';
import { parseFilter, type Comparison } from './filter';
import { listResponse, presentScimUser, type GroupRef } from './presenters';
import { ssoSettings, syncRoles } from './roles';
import { isAdmin, isLastAdmin } from '../organizations/last-admin';
import { isAdminLevel } from '../../../common/roles';
import { applyUserPatch, emailFromList, parseEmail, type UserState } from './user-patch';
import { assertAddressOpenTo } from '../sso/domains';

type UserRow = typeof users.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const USER_FILTERS = ['username', 'externalid', 'emails', 'emails.value', 'id'] as const;

/** The SCIM users of the organization: everyone in it but those SCIM deleted (removed by admins show as inactive). */
const scimUsersOf = (organizationId: string) =>
  and(eq(users.organizationId, organizationId), isNull(users.scimDeletedAt));

function userCondition({ attribute, value }: Comparison): SQL {
  switch (attribute) {
    // userName is case-insensitive (RFC 7643 §4.1.1: caseExact false), and so is an e-mail address.
    case 'username':
      return sql`lower(coalesce(${users.scimUserName}, ${users.username})) = lower(${value})`;
    case 'emails':
    case 'emails.value':
      return sql`lower(${users.email}) = lower(${value})`;
    case 'externalid':
      return eq(users.scimExternalId, value);
    default:
      return UUID.test(value) ? eq(users.id, value) : sql`false`;
  }
}

/**
 * A userName names one SCIM resource of the organization (active or not); Verity's own username is made from it
 * (`freeUsername`) and may differ, as Verity's cannot hold '@'.
 */
async function assertScimUserNameFree(tx: DbOrTx, organizationId: string, userName: string, exceptId?: string) {
  const [taken] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        scimUsersOf(organizationId),
        sql`lower(coalesce(${users.scimUserName}, ${users.username})) = lower(${userName})`,
        exceptId ? ne(users.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw conflict('userName is already taken by another user of this organization.');
}

/** Each user's SCIM groups, for the read-only `groups` attribute. */
async function groupsOf(db: DbOrTx, userIds: string[]): Promise<Map<string, GroupRef[]>> {
  const byUser = new Map<string, GroupRef[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db
    .select({ userId: scimGroupMembers.userId, id: scimGroups.id, displayName: scimGroups.displayName })
    .from(scimGroupMembers)
    .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
    .where(inArray(scimGroupMembers.userId, userIds))
    .orderBy(asc(scimGroups.displayName));
  for (const r of rows)
    byUser.set(r.userId, [...(byUser.get(r.userId) ?? []), { id: r.id, displayName: r.displayName }]);
  return byUser;
}

async function present(ctx: ScimCtx, db: DbOrTx, user: UserRow) {
  const groups = await groupsOf(db, [user.id]);
  return presentScimUser(user, groups.get(user.id) ?? [], ctx.baseUrl);
}

/** A user of the token's organization by id; another organization's user, or a SCIM-deleted one, is a 404. */
async function loadUser(ctx: ScimCtx, db: DbOrTx, id: string, lock = false): Promise<UserRow> {
  if (!UUID.test(id)) throw scimNotFound('User', id);
  const query = db
    .select()
    .from(users)
    .where(and(eq(users.id, id), scimUsersOf(ctx.organizationId)));
  const [user] = lock ? await query.for('update') : await query;
  if (!user) throw scimNotFound('User', id);
  return user;
}

export async function listScimUsers(ctx: ScimCtx, query: ScimListQuery) {
  const comparisons = query.filter ? parseFilter(query.filter, USER_FILTERS) : [];
  const where = and(scimUsersOf(ctx.organizationId), ...comparisons.map(userCondition));
  const [total] = await ctx.db.select({ n: count() }).from(users).where(where);
  const rows =
    query.count === 0
      ? []
      : await ctx.db
          .select()
          .from(users)
          .where(where)
          .orderBy(asc(users.createdAt), asc(users.id))
          .offset(query.startIndex - 1)
          .limit(query.count);
  const groups = await groupsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  const resources = rows.map((r) => presentScimUser(r, groups.get(r.id) ?? [], ctx.baseUrl));
  return listResponse(resources, total?.n ?? 0, query.startIndex);
}

export async function getScimUser(ctx: ScimCtx, id: string) {
  return present(ctx, ctx.db, await loadUser(ctx, ctx.db, id));
}

const via = (ctx: ScimCtx) => ({ via: 'scim', tokenId: ctx.tokenId });

function audit(tx: Tx, ctx: ScimCtx, action: string, userId: string, details: Record<string, unknown>) {
  return writeAudit(tx, {
    organizationId: ctx.organizationId,
    userId: null,
    action,
    entityType: 'user',
    entityId: userId,
    details: { ...via(ctx), ...details },
  });
}

/** The e-mail of a new or replaced user: the primary (or first) of `emails`, else userName when it is an address. */
function emailOf(body: ScimUserBody, fallback: string | null): string {
  const fromList = emailFromList(body.emails);
  if (fromList) return fromList;
  if (fallback) return fallback;
  if (body.userName.includes('@')) return parseEmail(body.userName);
  throw invalidValue('An e-mail address is required: send emails, or a userName that is an e-mail address');
}

/**
 * Provisions a person: no password (they sign in through SSO), source 'scim', and the organization's SSO default
 * role (viewer when it has none); group memberships pushed later may change it. A userName or e-mail a live user of
 * any organization holds is a 409 uniqueness.
 */
export async function createScimUser(ctx: ScimCtx, body: ScimUserBody) {
  const email = emailOf(body, null);
  const active = body.active ?? true;
  return inTransaction(ctx.db, async (tx) => {
    await assertScimUserNameFree(tx, ctx.organizationId, body.userName);
    await assertAddressOpenTo(tx, ctx.organizationId, email);
    const username = await freeUsername(tx, body.userName, email);
    if (active) await assertUsernameAndEmailFree(tx, username, email);
    const { defaultRole } = await ssoSettings(tx, ctx.organizationId);
    const [user] = await tx
      .insert(users)
      .values({
        organizationId: ctx.organizationId,
        username,
        scimUserName: body.userName,
        email,
        passwordHash: null,
        firstName: body.name?.givenName || null,
        lastName: body.name?.familyName || null,
        role: defaultRole,
        source: 'scim',
        scimExternalId: body.externalId || null,
        // Provisioned inactive (some clients create suspended people): the row exists, nobody can sign in with it.
        deletedAt: active ? null : new Date(),
      })
      .returning();
    if (!user) throw new Error('insert returned no user');
    await audit(tx, ctx, 'scim_user_created', user.id, {
      username: user.username,
      userName: body.userName,
      role: defaultRole,
      active,
    });
    return present(ctx, tx, user);
  });
}

const stateOf = (user: UserRow): UserState => ({
  username: user.scimUserName ?? user.username,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  externalId: user.scimExternalId,
  active: user.deletedAt === null,
});

/** What a deactivated person leaves behind ends with them: sessions, API tokens, invitations they sent. */
async function endAccess(tx: Tx, ctx: ScimCtx, user: UserRow) {
  const sessionsEnded = await deleteUserSessions(tx, user.id);
  await revokeUserApiTokens(tx, user, 'deactivated');
  await tx
    .delete(invitations)
    .where(
      and(
        eq(invitations.organizationId, ctx.organizationId),
        eq(invitations.invitedBy, user.id),
        isNull(invitations.acceptedAt),
      ),
    );
  return sessionsEnded;
}

async function voidPasswordResets(tx: Tx, userId: string) {
  await tx
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

const lastAdminRefusal = (user: UserRow) =>
  new ScimError(
    409,
    `${user.username} is the organization's last admin and stays active. Make another user admin in Verity first.`,
  );

/**
 * The last admin keeps the organization managed, and while SSO is required the break-glass admin is its way back in
 * when the identity provider fails: neither is deactivated (409).
 */
async function assertMayDeactivate(tx: Tx, ctx: ScimCtx, user: UserRow) {
  const { ssoRequired, breakGlassUserId } = await ssoSettings(tx, ctx.organizationId);
  if (ssoRequired && user.id === breakGlassUserId) {
    throw new ScimError(
      409,
      `${user.username} is the organization's break-glass admin (who signs in with a password while SSO is required) and stays active. Choose another break-glass admin in SSO Settings first.`,
    );
  }
  if (await isLastAdmin(tx, ctx.organizationId, user.id)) throw lastAdminRefusal(user);
}

/**
 * Writes a user's new state. Deactivation (`active: false`) removes access at once, as an admin's removal does;
 * reactivation checks the userName and e-mail are still free and brings the role in line with the person's groups;
 * the last admin and the break-glass admin are never deactivated (409). The e-mail of a password account or an admin
 * never changes here (400 mutability); any other change voids pending reset links.
 */
async function saveState(tx: Tx, ctx: ScimCtx, user: UserRow, next: UserState) {
  const before = stateOf(user);
  const deactivating = before.active && !next.active;
  const reactivating = !before.active && next.active;
  if (deactivating) await assertMayDeactivate(tx, ctx, user);
  // The identity provider cannot undo what an admin did in Verity: its routine pushes say `active: true` for
  // everyone it still assigns to the app, and would otherwise bring a removed admin back with their role.
  if (reactivating && user.removedByAdminAt !== null) {
    throw new ScimError(
      400,
      `${user.username} was removed by an admin in Verity, so the identity provider cannot activate them again. An admin can invite them again in Verity.`,
      'mutability',
    );
  }
  const emailChanged = next.email !== before.email.toLowerCase();
  // Whoever holds a SCIM token could otherwise point a password account's address at their own mailbox and take
  // the account over with a password reset: such an address changes only through the link Verity mails.
  if (emailChanged && user.passwordHash !== null) {
    throw new ScimError(
      400,
      `${user.username} signs in with a password, so their e-mail address changes only in Verity (through the link it mails to the new address)`,
      'mutability',
    );
  }
  // The same for a manager or an admin without a password (made by SSO or SCIM): a reset mailed to the new address
  // would give whoever reads it a manager or an admin that signs in with a password.
  if (emailChanged && isAdminLevel(user.role)) {
    throw new ScimError(
      400,
      `${user.username} is ${isAdmin(user.role) ? 'an admin' : 'a manager'}, so their e-mail address changes only in Verity (through the link it mails to the new address)`,
      'mutability',
    );
  }
  if (emailChanged) await assertAddressOpenTo(tx, ctx.organizationId, next.email);
  const userNameChanged = next.username.toLowerCase() !== before.username.toLowerCase();
  if (userNameChanged) await assertScimUserNameFree(tx, ctx.organizationId, next.username, user.id);
  // Only live users hold their names and addresses: a deactivated one is checked when it comes back.
  if (next.active && (reactivating || emailChanged)) {
    await assertUsernameAndEmailFree(tx, user.username, next.email, user.id);
  }
  const changed = (Object.keys(next) as Array<keyof UserState>).filter((k) => k !== 'active' && next[k] !== before[k]);
  if (changed.length === 0 && !deactivating && !reactivating) return user;
  const [saved] = await tx
    .update(users)
    .set({
      scimUserName: next.username,
      email: next.email,
      firstName: next.firstName,
      lastName: next.lastName,
      scimExternalId: next.externalId,
      ...(deactivating && { deletedAt: new Date() }),
      ...(reactivating && { deletedAt: null }),
      updatedAt: new Date(),
    })
    .where(eq(users.id, user.id))
    .returning();
  if (!saved) throw scimNotFound('User', user.id);
  // A reset link already mailed went to the old address: it must not outlive the address it was sent to.
  if (emailChanged) await voidPasswordResets(tx, user.id);
  if (changed.length > 0) {
    await audit(tx, ctx, 'scim_user_updated', user.id, { username: saved.username, fields: changed });
  }
  if (deactivating) {
    const sessionsEnded = await endAccess(tx, ctx, saved);
    await audit(tx, ctx, 'scim_user_deactivated', user.id, { username: saved.username, sessionsEnded });
  }
  if (reactivating) {
    await audit(tx, ctx, 'scim_user_reactivated', user.id, { username: saved.username });
    // The role left with them may be stale (the mappings may have changed meanwhile): they come back with the role
    // their groups give now.
    await syncRoles(tx, ctx, [saved.id]);
  }
  return saved;
}

/** PUT: the body replaces what SCIM can change; names and externalId it leaves out are cleared (RFC 7644 §3.5.1). */
export async function replaceScimUser(ctx: ScimCtx, id: string, body: ScimUserBody) {
  return inTransaction(ctx.db, async (tx) => {
    const user = await loadUser(ctx, tx, id, true);
    const next: UserState = {
      username: body.userName,
      // Verity needs an address: a PUT without one keeps the stored address.
      email: emailOf(body, user.email),
      firstName: body.name?.givenName || null,
      lastName: body.name?.familyName || null,
      externalId: body.externalId || null,
      active: body.active ?? user.deletedAt === null,
    };
    return present(ctx, tx, await saveState(tx, ctx, user, next));
  });
}

export async function patchScimUser(ctx: ScimCtx, id: string, operations: ScimPatchOperation[]) {
  return inTransaction(ctx.db, async (tx) => {
    const user = await loadUser(ctx, tx, id, true);
    const next = applyUserPatch(stateOf(user), operations);
    return present(ctx, tx, await saveState(tx, ctx, user, next));
  });
}

/**
 * DELETE: deactivates (sessions and tokens end) and takes the person out of SCIM: afterwards the id is a 404 and
 * the user is no longer listed. The row stays so the audit trail keeps its name. Group memberships end, and with
 * them any role those groups gave.
 */
export async function deleteScimUser(ctx: ScimCtx, id: string) {
  await inTransaction(ctx.db, async (tx) => {
    const user = await loadUser(ctx, tx, id, true);
    const saved = await saveState(tx, ctx, user, { ...stateOf(user), active: false });
    await tx.update(users).set({ scimDeletedAt: new Date(), updatedAt: new Date() }).where(eq(users.id, saved.id));
    const left = await tx
      .delete(scimGroupMembers)
      .where(eq(scimGroupMembers.userId, saved.id))
      .returning({ groupId: scimGroupMembers.groupId });
    await audit(tx, ctx, 'scim_user_deleted', saved.id, {
      username: saved.username,
      ...(left.length > 0 && { groupsLeft: left.map((g) => g.groupId) }),
    });
  });
}
