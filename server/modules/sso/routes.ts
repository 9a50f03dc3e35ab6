import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SsoDiscoverQuery,
  SsoDiscovery,
  SsoSettingsView,
  SsoStartQuery,
  SSO_ERRORS,
  UpdateSsoBody,
  type SsoErrorCode,
} from '../../../common/schemas/sso';
import { SsoDomainParams } from '../../../common/schemas/sso-domains';
import { AppError } from '../../errors';
import { readSessionCookie, setSessionCookie } from '../../http/session-cookie';
import { deleteSessionByToken } from '../auth/sessions';
import { getSsoSettings, removeSsoSettings, saveSsoSettings, SSO_CALLBACK_PATH, verifySsoDomain } from './settings';
import { discoverSso, finishSsoSignIn, startSsoSignIn } from './sign-in';
import { sameSitePath } from './return-path';

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

/** A 429 of the sign-in flow: the browser is on a redirect, so it goes back to the login page with the reason. */
class SsoBusy extends AppError {
  constructor() {
    super(429, 'sso_busy', SSO_ERRORS.sso_busy);
  }
}

export async function ssoRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { config } = app.deps;
  const perIp = { max: config.authRateLimitPerMinute, timeWindow: '1 minute' };
  const open = { access: 'public', rateLimit: perIp } as const;
  // A whole company often signs in from one address (NAT, a proxy's exits) within minutes of starting work, and a
  // refused callback would lose a sign-in the provider already made: these allow more, and say so on the login page.
  const signInLimit = {
    max: Math.max(config.authRateLimitPerMinute * 10, 200),
    timeWindow: '1 minute',
    errorResponseBuilder: () => new SsoBusy(),
  };
  const flow = { access: 'public', rateLimit: signInLimit } as const;
  const busyToLogin = (err: unknown, _req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof SsoBusy) return reply.redirect(loginWithError('sso_busy'), 302);
    throw err;
  };
  const read = { access: 'sso:manage' } as const;
  // Changing who may sign in is for a person at the keyboard: an API token could otherwise point the organization
  // at an identity provider its holder controls.
  const manage = { access: 'sso:manage', sessionOnly: true } as const;

  app.get('/api/admin/sso', { config: read, schema: { ...tag, response: { 200: SsoSettingsView } } }, async (req) =>
    getSsoSettings(req.user, config.publicUrl),
  );

  app.put(
    '/api/admin/sso',
    { config: manage, schema: { ...tag, body: UpdateSsoBody, response: { 200: SsoSettingsView } } },
    async (req) =>
      saveSsoSettings(
        req.user,
        { secret: config.sessionSecret, publicUrl: config.publicUrl, allowedIssuerHosts: config.ssoAllowedIssuerHosts },
        req.body,
      ),
  );

  app.delete(
    '/api/admin/sso',
    { config: manage, schema: { ...tag, response: { 200: SsoSettingsView } } },
    async (req) => removeSsoSettings(req.user, config.publicUrl),
  );

  // Each press makes the server ask DNS: limited per address like the sign-in forms (AUTH_RATE_LIMIT_PER_MINUTE).
  app.post(
    '/api/admin/sso/domains/:domain/verify',
    {
      config: { ...manage, rateLimit: perIp },
      schema: { ...tag, params: SsoDomainParams, response: { 200: SsoSettingsView } },
    },
    async (req) =>
      verifySsoDomain(req.user, { dnsServers: config.dnsServers, publicUrl: config.publicUrl }, req.params.domain),
  );

  app.get(
    '/api/auth/sso/discover',
    { config: open, schema: { ...tag, querystring: SsoDiscoverQuery, response: { 200: SsoDiscovery } } },
    async (req) => discoverSso(app.deps.db, req.query),
  );

  // Opened by the browser (a navigation, not fetch): it answers with a redirect to the identity provider. Only a
  // navigation from Verity's own pages (or one the person typed) starts a sign-in: a link on another site could
  // otherwise sign the visitor into an organization of the linker's choosing (login CSRF), since the state cookie
  // would be set in the visitor's own browser. Browsers without Fetch Metadata send no header and are let through.
  app.get(
    '/api/auth/sso/start',
    { config: flow, errorHandler: busyToLogin, schema: { ...tag, querystring: SsoStartQuery } },
    async (req, reply) => {
      const site = req.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        return reply.redirect(loginWithError('sso_start_elsewhere'), 302);
      }
      const returnTo = req.query.returnTo === undefined ? null : sameSitePath(req.query.returnTo, config.publicUrl);
      const started = await startSsoSignIn(app.deps, { ...req.query, returnTo: returnTo ?? undefined });
      if ('error' in started) return reply.redirect(loginWithError(started.error), 302);
      stateCookie(req, reply, started.state);
      return reply.redirect(started.redirectTo, 302);
    },
  );

  // The provider sends the browser here. Every outcome is a redirect: into Verity, or to the login page with a code.
  app.get(
    SSO_CALLBACK_PATH,
    {
      config: flow,
      errorHandler: busyToLogin,
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
      return reply.redirect(sameSitePath(result.returnTo, config.publicUrl) ?? '/', 302);
    },
  );
}
