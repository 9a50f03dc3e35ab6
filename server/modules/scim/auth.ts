import type { FastifyRequest } from 'fastify';
import { and, eq, isNull } from 'drizzle-orm';
import { scimTokens } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { hashToken } from '../../tokens';
import { ScimError } from './errors';
import { SCIM_TOKEN_PREFIX } from '../../../common/schemas/scim';

/** `last_used_at` moves at most this often, so a sync of thousands of users does not write on every call. */
const TOUCH_EVERY_MS = 60_000;

/** Who a SCIM call acts for: one organization, through one token; `baseUrl` builds `meta.location`. */
export type ScimCtx = { db: DbOrTx; organizationId: string; tokenId: string; baseUrl: string };

const contexts = new WeakMap<FastifyRequest, ScimCtx>();

/** The caller's context, set by `authenticateScim` for every SCIM route. */
export function scimCtx(req: FastifyRequest): ScimCtx {
  const ctx = contexts.get(req);
  if (!ctx) throw new Error(`${req.method} ${req.url} ran without a SCIM caller`);
  return ctx;
}

const unauthorized = (detail: string) => new ScimError(401, detail);

/**
 * Reads `Authorization: Bearer vscim_…` and finds its live token by hash (no comparison ever runs on the secret).
 * The token stays valid when the admin who made it leaves: it belongs to the organization's identity provider, and
 * admins see and revoke it on the SSO tab.
 */
export async function authenticateScim(req: FastifyRequest): Promise<void> {
  const header = req.headers.authorization;
  if (!header) throw unauthorized('Send the SCIM token as "Authorization: Bearer vscim_…".');
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (!token) throw unauthorized('Send the SCIM token as "Authorization: Bearer vscim_…".');
  const { deps } = req.server;
  if (!token.startsWith(SCIM_TOKEN_PREFIX) || token.length > 200) {
    throw unauthorized('This SCIM token is unknown or revoked.');
  }
  const [row] = await deps.db
    .select({ id: scimTokens.id, organizationId: scimTokens.organizationId, lastUsedAt: scimTokens.lastUsedAt })
    .from(scimTokens)
    .where(and(eq(scimTokens.tokenHash, hashToken(token)), isNull(scimTokens.revokedAt)))
    .limit(1);
  if (!row) throw unauthorized('This SCIM token is unknown or revoked.');
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await deps.db.update(scimTokens).set({ lastUsedAt: new Date() }).where(eq(scimTokens.id, row.id));
  }
  contexts.set(req, {
    db: deps.db,
    organizationId: row.organizationId,
    tokenId: row.id,
    baseUrl: `${deps.config.publicUrl}/scim/v2`,
  });
}

/** Rate limits count per token (its hash), or per address for a call without one. */
export function scimRateKey(req: FastifyRequest): string {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  return token ? `scim:${hashToken(token)}` : `scim-ip:${req.ip}`;
}
