import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const crossSite = () =>
  new AppError(
    403,
    'cross_site_request',
    'This request came from another site and was refused. Open Verity itself and try again.',
  );

function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * CSRF defence for cookie-authenticated calls (OWASP "verify origin with standard headers"). A browser tells where
 * a request comes from: `Sec-Fetch-Site`, else `Origin`, else `Referer`. A state-changing call whose source is
 * another site, or an opaque `null` origin, is refused; the allowed origins are this request's own host and
 * PUBLIC_URL. A caller that sends none of the three is not a browser acting for someone (curl, scripts) and has no
 * ambient cookie to abuse. The SameSite=Lax cookie is the first line; this one also covers same-site subdomains
 * and browsers that ignore SameSite.
 */
export function assertSameOrigin(req: FastifyRequest, publicUrl: string): void {
  if (SAFE_METHODS.has(req.method)) return;
  const fetchSite = header(req, 'sec-fetch-site');
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') throw crossSite();
  if (fetchSite === 'same-origin' || fetchSite === 'none') return;

  const source = header(req, 'origin') ?? header(req, 'referer');
  if (source === undefined) return;
  const origin = source === 'null' ? null : originOf(source);
  // Both sides through URL, so `http://host:80` and `http://host` compare equal.
  const allowed = new Set([originOf(`${req.protocol}://${req.host}`), originOf(publicUrl)]);
  if (origin === null || !allowed.has(origin)) throw crossSite();
}

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
