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

/** The caller's context, set by `resolveScimCaller` for every SCIM call it authenticates. */
export function scimCtx(req: FastifyRequest): ScimCtx {
  const ctx = contexts.get(req);
  if (!ctx) throw new Error(`${req.method} ${req.url} ran without a SCIM caller`);
  return ctx;
}

const unauthorized = (detail: string) => new ScimError(401, detail);

/** Why a call was refused, kept from `resolveScimCaller` (onRequest) until `requireScimCaller` (preParsing). */
const refusals = new WeakMap<FastifyRequest, ScimError>();

/**
 * Reads `Authorization: Bearer vscim_…` and finds its live token by hash (no comparison ever runs on the secret):
 * the caller's context, or the refusal to answer once the rate limit has counted the call. It runs before the
 * limit because the limit's key depends on it: a token that authenticates has its own budget, whatever address it
 * calls from; anything else counts against its address, so made-up tokens cannot each get a fresh allowance. A
 * call without a well-formed token costs no lookup.
 * The token stays valid when the admin who made it leaves: it belongs to the organization's identity provider, and
 * admins see and revoke it on the SSO tab.
 */
export async function resolveScimCaller(req: FastifyRequest): Promise<void> {
  const refuse = (detail: string) => void refusals.set(req, unauthorized(detail));
  const header = req.headers.authorization;
  const token = header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
  if (!token) return refuse('Send the SCIM token as "Authorization: Bearer vscim_…".');
  if (!token.startsWith(SCIM_TOKEN_PREFIX) || token.length > 200) {
    return refuse('This SCIM token is unknown or revoked.');
  }
  const { deps } = req.server;
  const [row] = await deps.db
    .select({ id: scimTokens.id, organizationId: scimTokens.organizationId, lastUsedAt: scimTokens.lastUsedAt })
    .from(scimTokens)
    .where(and(eq(scimTokens.tokenHash, hashToken(token)), isNull(scimTokens.revokedAt)))
    .limit(1);
  if (!row) return refuse('This SCIM token is unknown or revoked.');
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

/** Refuses (401) a call `resolveScimCaller` found no live token for. */
export function requireScimCaller(req: FastifyRequest): void {
  if (contexts.has(req)) return;
  throw refusals.get(req) ?? unauthorized('Send the SCIM token as "Authorization: Bearer vscim_…".');
}

/** Rate limits count per live token, and per address for every call whose token does not authenticate. */
export function scimRateKey(req: FastifyRequest): string {
  const ctx = contexts.get(req);
  return ctx ? `scim:${ctx.tokenId}` : `scim-ip:${req.ip}`;
}

/** Whether a rate-limit key is an address's (callers without a live token), as `scimRateKey` makes them. */
export const isAddressKey = (key: string) => key.startsWith('scim-ip:');
