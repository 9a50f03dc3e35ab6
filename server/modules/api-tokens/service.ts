import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { apiTokens, users } from '../../db/schema';
import { inTransaction, type DbOrTx } from '../../db/client';
import type { SessionUser, UserCtx } from '../../http/context';
import { notFound } from '../../http/errors';
import { hashToken, newToken } from '../../http/tokens';
import { audit } from '../audit/service';
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
    .orderBy(desc(apiTokens.createdAt));
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

/** Revokes a token of the caller's organization at once; a token of another organization is "not found". */
export async function revokeApiToken(ctx: UserCtx, id: string): Promise<void> {
  return inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .update(apiTokens)
      .set({ revokedAt: sql`coalesce(${apiTokens.revokedAt}, now())` })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.organizationId, ctx.organizationId)))
      .returning();
    if (!row) throw notFound('API token');
    await audit({ ...ctx, db: tx }, 'api_token_revoked', 'api_token', row.id, { name: row.name });
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
