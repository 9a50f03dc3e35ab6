import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'verity_session';

/** httpOnly + SameSite=Lax always; Secure whenever the request came over https (directly or via a trusted proxy). */
export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    path: '/',
    maxAge: Math.floor(req.server.deps.config.sessionTtlMs / 1000),
  });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https' });
}

export function readSessionCookie(req: FastifyRequest): string | undefined {
  const value = req.cookies[SESSION_COOKIE];
  return value && value.length <= 200 ? value : undefined;
}
