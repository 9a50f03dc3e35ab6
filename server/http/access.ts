import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TenantCtx, UserCtx } from '../context';
import { authorize } from '../authorize';
import { authenticate } from './authenticate';
import { resolveTenant } from './context';
import { assertNoNulInUrl } from './json-body';

type Bound = { user: UserCtx; tenant?: TenantCtx };
const bound = new WeakMap<FastifyRequest, Bound>();

/** Whether a route path is part of the API (the web app's files and pages are not). */
export function isApiRoute(url: string | undefined): boolean {
  return url !== undefined && (url === '/api' || url.startsWith('/api/'));
}

function boundOf(req: FastifyRequest): Bound {
  const b = bound.get(req);
  // A handler reading a context its route did not declare is a bug in the route, not the caller's fault: a 500.
  if (!b) throw new Error(`${req.method} ${req.routeOptions.url ?? req.url} has no signed-in caller`);
  return b;
}

/**
 * Access control for every /api route, from what the route declares (`config.access`, `config.workspace`):
 * - registering an /api route without `access` throws, so no route is left open by omission;
 * - onRequest: who is calling (401), then whether their role allows the action (403), before the body is read;
 * - preHandler: `req.user`, and `req.tenant` on workspace routes (the `X-Workspace-Id` header's 400/404 come after
 *   body validation, where the handlers used to resolve it).
 *
 * Decided by the route the router matched, which it found after decoding the path: a test of the raw address
 * would let `/%61pi/auth/login` reach the sign-in route past these checks.
 */
export function registerAccess(app: FastifyInstance): void {
  app.decorateRequest('session', null);
  app.decorateRequest('user', {
    getter(this: FastifyRequest) {
      return boundOf(this).user;
    },
  });
  app.decorateRequest('tenant', {
    getter(this: FastifyRequest) {
      const { tenant } = boundOf(this);
      if (!tenant) throw new Error(`${this.method} ${this.routeOptions.url ?? this.url} does not declare workspace`);
      return tenant;
    },
  });

  app.addHook('onRoute', (route) => {
    if (!isApiRoute(route.url)) return;
    const { access, workspace } = route.config ?? {};
    if (access === undefined) throw new Error(`${String(route.method)} ${route.url} declares no config.access`);
    // A workspace is one of the caller's: a route anyone may call has none to resolve.
    if (workspace && access === 'public')
      throw new Error(`${String(route.method)} ${route.url} is public: no workspace`);
  });

  app.addHook('onRequest', async (req) => {
    if (!isApiRoute(req.routeOptions.url)) return;
    assertNoNulInUrl(req.url);
    await authenticate(req);
    const { access } = req.routeOptions.config;
    if (access !== undefined && access !== 'public' && access !== 'signed-in' && req.session) {
      authorize(req.session, access);
    }
  });

  app.addHook('preHandler', async (req) => {
    if (!isApiRoute(req.routeOptions.url) || !req.session) return;
    const user: UserCtx = { ...req.session, db: req.server.deps.db };
    const tenant = req.routeOptions.config.workspace ? await resolveTenant(req, user) : undefined;
    bound.set(req, { user, tenant });
  });
}
