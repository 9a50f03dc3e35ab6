import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { apiTokens, invitations, users } from '../../db/schema';
import { inTransaction, type DbOrTx } from '../../db/client';
import type { SessionUser, UserCtx } from '../../context';
import { notFound } from '../../errors';
import { hashToken, newToken } from '../../tokens';
import { audit, writeAudit } from '../audit/service';
import { normalizeRole, ROLES, type Role, type StoredRole } from '../../../common/roles';
import { API_TOKEN_PREFIX, type CreateApiTokenBody } from '../../../common/schemas/api-tokens';

/** `last_used_at` is written at most this often, so a busy integration does not turn every read into a write. */
const TOUCH_EVERY_MS = 60_000;

type TokenRow = typeof apiTokens.$inferSelect;

/** The lower of two roles: a token never acts with more than its creator holds now. */
function lowerRole(a: Role, b: StoredRole): Role {
  const rank = (r: StoredRole) => (r === 'super_admin' ? ROLES.length - 1 : ROLES.indexOf(r));
  return rank(a) <= rank(b) ? a : (ROLES[rank(b)] ?? 'viewer');
}

/** The organization's tokens, newest first, each with its creator's username. */
export async function listApiTokens(ctx: UserCtx): Promise<Array<TokenRow & { creatorName: string }>> {
  const rows = await ctx.db
    .select({ token: apiTokens, creatorName: users.username })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.createdBy))
    .where(eq(apiTokens.organizationId, ctx.organizationId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return rows.map((r) => ({ ...r.token, creatorName: r.creatorName }));
}

/** Creates a token and returns it whole, once; only its hash is stored. */
export async function createApiToken(
  ctx: UserCtx,
  input: CreateApiTokenBody,
): Promise<{ row: TokenRow & { creatorName: string }; token: string }> {
  const token = `${API_TOKEN_PREFIX}${newToken()}`;
  const role = lowerRole(input.role, ctx.role);
  return inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .insert(apiTokens)
      .values({
        organizationId: ctx.organizationId,
        createdBy: ctx.userId,
        name: input.name,
        role,
        tokenHash: hashToken(token),
        prefix: token.slice(0, API_TOKEN_PREFIX.length + 6),
        expiresAt: input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    await audit({ ...ctx, db: tx }, 'api_token_created', 'api_token', row.id, { name: row.name, role });
    return { row: { ...row, creatorName: ctx.username }, token };
  });
}

/**
 * What a token did that outlives a call ends with it: its pending invitations are withdrawn, so a leaked token
 * cannot leave a way back in once it is revoked.
 */
async function withdrawInvitationsOf(db: DbOrTx, tokenIds: string[]): Promise<number> {
  if (tokenIds.length === 0) return 0;
  const deleted = await db
    .delete(invitations)
    .where(and(inArray(invitations.apiTokenId, tokenIds), isNull(invitations.acceptedAt)))
    .returning({ id: invitations.id });
  return deleted.length;
}

/** Revokes a token of the caller's organization at once; a token of another organization is "not found". */
export async function revokeApiToken(ctx: UserCtx, id: string): Promise<void> {
  return inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .update(apiTokens)
      .set({ revokedAt: sql`coalesce(${apiTokens.revokedAt}, now())` })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.organizationId, ctx.organizationId)))
      .returning();
    if (!row) throw notFound('API token');
    const invitationsWithdrawn = await withdrawInvitationsOf(tx, [row.id]);
    await audit({ ...ctx, db: tx }, 'api_token_revoked', 'api_token', row.id, {
      name: row.name,
      ...(invitationsWithdrawn > 0 && { invitationsWithdrawn }),
    });
  });
}

/**
 * A password change or reset ends every API token the user created (and the invitations those tokens made): whoever
 * held the old password may have minted them. Call inside the password change's transaction. A deactivation (SCIM)
 * or an admin's removal ends them too: a person who is gone keeps no way in, even if the account comes back.
 */
export async function revokeUserApiTokens(
  db: DbOrTx,
  user: { id: string; organizationId: string },
  reason: 'password_changed' | 'password_reset' | 'deactivated' | 'removed',
): Promise<void> {
  const revoked = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.createdBy, user.id), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  if (revoked.length === 0) return;
  const ids = revoked.map((r) => r.id);
  const invitationsWithdrawn = await withdrawInvitationsOf(db, ids);
  await writeAudit(db, {
    organizationId: user.organizationId,
    userId: user.id,
    action: 'api_tokens_revoked',
    entityType: 'user',
    entityId: user.id,
    details: { reason, apiTokenIds: ids, ...(invitationsWithdrawn > 0 && { invitationsWithdrawn }) },
  });
}

/**
 * The caller an `Authorization: Bearer` token stands for, or null: unknown, revoked, expired, or its creator was
 * removed or moved out of the organization. The lookup is by the token's hash, so no comparison ever runs on the
 * secret itself (nothing to time).
 */
export async function findApiTokenSession(db: DbOrTx, token: string): Promise<SessionUser | null> {
  if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 200) return null;
  const tokenHash = hashToken(token);
  const [row] = await db
    .select({
      id: apiTokens.id,
      role: apiTokens.role,
      lastUsedAt: apiTokens.lastUsedAt,
      organizationId: apiTokens.organizationId,
      userId: users.id,
      userRole: users.role,
      username: users.username,
    })
    .from(apiTokens)
    .innerJoin(users, and(eq(users.id, apiTokens.createdBy), eq(users.organizationId, apiTokens.organizationId)))
    .where(
      and(
        eq(apiTokens.tokenHash, tokenHash),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, new Date())),
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db.update(apiTokens).set({ lastUsedAt: new Date() }).where(eq(apiTokens.id, row.id));
  }
  const tokenRole = normalizeRole(row.role);
  return {
    userId: row.userId,
    organizationId: row.organizationId,
    role: lowerRole(tokenRole === 'super_admin' ? 'admin' : tokenRole, normalizeRole(row.userRole)),
    username: row.username,
    sessionHash: `api-token:${row.id}`,
    apiTokenId: row.id,
  };
}
