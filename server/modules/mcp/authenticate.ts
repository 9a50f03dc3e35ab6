import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../context';
import { findApiTokenSession } from '../api-tokens/service';
import { recordBadToken } from '../api-tokens/bad-token-limit';

const callers = new WeakMap<FastifyRequest, SessionUser>();

function refuse(reply: FastifyReply, error: string, challenge: string) {
  return reply.code(401).header('WWW-Authenticate', challenge).send({ error, code: 'unauthenticated' });
}

/**
 * onRequest of /mcp: the caller is an API token (`Authorization: Bearer vrt_…`), acting with the token's role capped
 * by its creator's current one, and nothing else. Cookies are never read, so a browser cannot be made to call MCP
 * tools on its user's behalf (no CSRF surface), and the 401 comes before the body is read.
 */
export async function authenticateMcp(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const header = req.headers.authorization;
  const token = header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
  if (!token) {
    return refuse(
      reply,
      'Send a Verity API token as "Authorization: Bearer vrt_…". An admin creates tokens in Workspace Settings → API Tokens.',
      'Bearer realm="verity"',
    );
  }
  const { db, config } = req.server.deps;
  const session = await findApiTokenSession(db, token);
  if (!session) {
    await recordBadToken(db, req.ip, config.authRateLimitPerMinute);
    return refuse(
      reply,
      'This API token is unknown, expired or revoked. Ask an admin for a new one.',
      'Bearer realm="verity", error="invalid_token"',
    );
  }
  callers.set(req, session);
  return undefined;
}

/** The token's caller, as authenticateMcp found it. */
export function mcpCallerOf(req: FastifyRequest): SessionUser {
  const caller = callers.get(req);
  // A route that reads a caller it never authenticated is a bug in the route, not the client's fault.
  if (!caller) throw new Error(`${req.method} ${req.url} has no authenticated MCP caller`);
  return caller;
}
