import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { scimTokens } from '../../db/schema';
import { inTransaction } from '../../db/client';
import type { UserCtx } from '../../context';
import { notFound } from '../../errors';
import { hashToken, newToken } from '../../tokens';
import { audit } from '../audit/service';
import { SCIM_TOKEN_PREFIX } from '../../../common/schemas/scim';
import type { CreatedScimToken, ScimSettingsView, ScimTokenView } from '../../../common/schemas/sso';

type TokenRow = typeof scimTokens.$inferSelect;

/** Never the token or its hash: the prefix tells tokens apart. */
export function presentScimToken(row: TokenRow): ScimTokenView {
  return {
    id: row.id,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** The SCIM base URL an identity provider is given, and the organization's live tokens, newest first. */
export async function scimSettings(ctx: UserCtx, publicUrl: string): Promise<ScimSettingsView> {
  const rows = await ctx.db
    .select()
    .from(scimTokens)
    .where(and(eq(scimTokens.organizationId, ctx.organizationId), isNull(scimTokens.revokedAt)))
    .orderBy(desc(scimTokens.createdAt), desc(scimTokens.id));
  return { baseUrl: `${publicUrl}/scim/v2`, tokens: rows.map(presentScimToken) };
}

/** A new token, returned whole this once; only its SHA-256 is stored. */
export async function createScimToken(ctx: UserCtx): Promise<CreatedScimToken> {
  const token = `${SCIM_TOKEN_PREFIX}${newToken()}`;
  return inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .insert(scimTokens)
      .values({
        organizationId: ctx.organizationId,
        createdBy: ctx.userId,
        tokenHash: hashToken(token),
        prefix: token.slice(0, SCIM_TOKEN_PREFIX.length + 6),
      })
      .returning();
    if (!row) throw new Error('insert returned no token');
    await audit({ ...ctx, db: tx }, 'scim_token_created', 'scim_token', row.id, { prefix: row.prefix });
    return { token, view: presentScimToken(row) };
  });
}

/** Revokes a token of the caller's organization at once (again: no change); another organization's is a 404. */
export async function revokeScimToken(ctx: UserCtx, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .update(scimTokens)
      .set({ revokedAt: sql`coalesce(${scimTokens.revokedAt}, now())` })
      .where(and(eq(scimTokens.id, id), eq(scimTokens.organizationId, ctx.organizationId)))
      .returning();
    if (!row) throw notFound('SCIM token');
    await audit({ ...ctx, db: tx }, 'scim_token_revoked', 'scim_token', row.id, { prefix: row.prefix });
  });
}
