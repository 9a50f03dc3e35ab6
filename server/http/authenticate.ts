import type { FastifyRequest } from 'fastify';
import { findSession } from '../modules/auth/sessions';
import { findApiTokenSession } from '../modules/api-tokens/service';
import { recordBadToken } from '../modules/api-tokens/bad-token-limit';
import { AppError, forbidden, unauthenticated } from '../errors';
import { readSessionCookie } from './session-cookie';
import { assertSameOrigin } from './same-origin';

function bearerToken(req: FastifyRequest): string | undefined {
  const value = req.headers.authorization;
  if (!value) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  if (!match) {
    throw new AppError(401, 'unauthenticated', 'Send an API token as "Authorization: Bearer vrt_…".');
  }
  return match[1];
}

/**
 * Who is calling an /api route. An API token (`Authorization: Bearer`) is for scripts: it is checked alone, ignores
 * cookies, and needs no CSRF check because a browser never attaches it by itself. A browser session comes from the
 * httpOnly cookie and must come from Verity's own origin when it changes something. Every route needs a caller
 * unless it declares `access: 'public'`, and the 401 comes before body validation so anonymous callers learn nothing
 * about a route's schema.
 */
export async function authenticate(req: FastifyRequest): Promise<void> {
  const { deps } = req.server;
  const matched = req.routeOptions.url !== undefined;
  const config = req.routeOptions.config;
  const bearer = bearerToken(req);
  if (bearer !== undefined) {
    req.session = await findApiTokenSession(deps.db, bearer);
    if (!req.session) {
      await recordBadToken(deps.db, req.ip, deps.config.authRateLimitPerMinute);
      throw new AppError(401, 'unauthenticated', 'This API token is unknown, expired or revoked.');
    }
    if (matched && config.sessionOnly) {
      throw forbidden('API tokens cannot do this. Sign in to Verity in a browser to do it.');
    }
    return;
  }
  assertSameOrigin(req, deps.config.publicUrl);
  const token = readSessionCookie(req);
  if (token) req.session = await findSession(deps.db, token, { idleMs: deps.config.sessionIdleMs });
  if (matched && !req.session && config.access !== 'public') throw unauthenticated();
}
