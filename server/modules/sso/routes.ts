import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SsoDiscoverQuery,
  SsoDiscovery,
  SsoSettingsView,
  SsoStartQuery,
  UpdateSsoBody,
  type SsoErrorCode,
} from '../../../common/schemas/sso';
import { readSessionCookie, setSessionCookie } from '../../http/session-cookie';
import { deleteSessionByToken } from '../auth/sessions';
import { getSsoSettings, removeSsoSettings, saveSsoSettings, SSO_CALLBACK_PATH } from './settings';
import { discoverSso, finishSsoSignIn, startSsoSignIn } from './sign-in';

const tag = { tags: ['sso'] };
/** Binds a sign-in's state to the browser that started it (login CSRF: a callback link sent by someone else fails). */
const STATE_COOKIE = 'verity_sso_state';
const STATE_COOKIE_PATH = '/api/auth/sso';

function stateCookie(req: FastifyRequest, reply: FastifyReply, value: string | null): void {
  const options = {
    httpOnly: true,
    // The provider's redirect back is a top-level GET from its site: Lax cookies go with it, Strict ones would not.
    sameSite: 'lax' as const,
    secure: req.protocol === 'https',
    path: STATE_COOKIE_PATH,
  };
  if (value === null) reply.clearCookie(STATE_COOKIE, options);
  else reply.setCookie(STATE_COOKIE, value, { ...options, maxAge: 600 });
}

const loginWithError = (code: SsoErrorCode) => `/login?${new URLSearchParams({ sso_error: code })}`;

export async function ssoRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { config } = app.deps;
  const perIp = { max: config.authRateLimitPerMinute, timeWindow: '1 minute' };
  const open = { access: 'public', rateLimit: perIp } as const;
  const manage = { access: 'sso:manage' } as const;

  app.get('/api/admin/sso', { config: manage, schema: { ...tag, response: { 200: SsoSettingsView } } }, async (req) =>
    getSsoSettings(req.user, config.publicUrl),
  );

  app.put(
    '/api/admin/sso',
    { config: manage, schema: { ...tag, body: UpdateSsoBody, response: { 200: SsoSettingsView } } },
    async (req) => saveSsoSettings(req.user, { secret: config.sessionSecret, publicUrl: config.publicUrl }, req.body),
  );

  app.delete(
    '/api/admin/sso',
    { config: manage, schema: { ...tag, response: { 200: SsoSettingsView } } },
    async (req) => removeSsoSettings(req.user, config.publicUrl),
  );

  app.get(
    '/api/auth/sso/discover',
    { config: open, schema: { ...tag, querystring: SsoDiscoverQuery, response: { 200: SsoDiscovery } } },
    async (req) => discoverSso(app.deps.db, req.query),
  );

  // Opened by the browser (a link, not fetch): it answers with a redirect to the identity provider.
  app.get(
    '/api/auth/sso/start',
    { config: open, schema: { ...tag, querystring: SsoStartQuery } },
    async (req, reply) => {
      const started = await startSsoSignIn(app.deps, req.query);
      if ('error' in started) return reply.redirect(loginWithError(started.error), 302);
      stateCookie(req, reply, started.state);
      return reply.redirect(started.redirectTo, 302);
    },
  );

  // The provider sends the browser here. Every outcome is a redirect: into Verity, or to the login page with a code.
  app.get(
    SSO_CALLBACK_PATH,
    {
      config: open,
      schema: {
        ...tag,
        querystring: z.object({
          state: z.string().max(500).optional(),
          code: z.string().max(4000).optional(),
          error: z.string().max(200).optional(),
        }),
      },
    },
    async (req, reply) => {
      const callbackUrl = new URL(req.url, config.publicUrl);
      const result = await finishSsoSignIn(app.deps, {
        callbackUrl,
        state: req.query.state,
        browserState: req.cookies[STATE_COOKIE],
        meta: {
          ip: req.ip,
          userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
        },
      });
      stateCookie(req, reply, null);
      if (!result.ok) return reply.redirect(loginWithError(result.error), 302);
      // A new session id on every sign-in; a session the browser still carried is ended, not reused.
      const previous = readSessionCookie(req);
      if (previous) await deleteSessionByToken(app.deps.db, previous);
      setSessionCookie(req, reply, result.sessionToken);
      return reply.redirect(result.returnTo, 302);
    },
  );
}
