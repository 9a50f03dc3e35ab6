import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AuthResponse,
  ChangePasswordBody,
  ConfirmEmailBody,
  DemoCredentials,
  ForgotPasswordBody,
  InvitationPreview,
  LoginBody,
  MeResponse,
  MessageResponse,
  ProfileBody,
  ProfileResponse,
  RegisterBody,
  ResetPasswordBody,
  RevokeOtherSessionsResponse,
  SessionView,
} from '../../../common/schemas/auth';
import { SuccessResponse } from '../../../common/schemas/errors';
import { allowedActions } from '../../../common/policies';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../../http/session-cookie';
import { presentSession, presentUser } from './presenters';
import { deleteSessionByToken } from './sessions';
import * as auth from './service';
import { demoCredentials } from './demo';

const tag = { tags: ['auth'] };

export async function authRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  // Credentials and names are small: nothing here needs more than a few kilobytes of body.
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= 16 * 1024;
  });
  // Unauthenticated endpoints that create things or send mail are limited per IP (sign-in has its own limiter).
  const perIp = { max: app.deps.config.authRateLimitPerMinute, timeWindow: '1 minute' };
  const open = { access: 'public' } as const;
  // Passwords, profile and sessions belong to the person at the keyboard, never to an API token.
  const sessionOnly = { access: 'signed-in', sessionOnly: true } as const;
  const meta = (req: { ip: string; headers: Record<string, unknown> }) => ({
    ip: req.ip,
    userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
  });

  app.post(
    '/api/auth/register',
    {
      schema: { ...tag, body: RegisterBody, response: { 201: AuthResponse } },
      config: { ...open, rateLimit: perIp },
    },
    async (req, reply) => {
      const { user, token } = await auth.register(app.deps, req.body, meta(req));
      setSessionCookie(req, reply, token);
      return reply.code(201).send({ user: presentUser(user) });
    },
  );

  app.post(
    '/api/auth/login',
    { config: { ...open, rateLimit: perIp }, schema: { ...tag, body: LoginBody, response: { 200: AuthResponse } } },
    async (req, reply) => {
      const { user, token } = await auth.login(app.deps, req.body, meta(req));
      // A new session id on every sign-in; a session the browser still carried is ended, not reused.
      const previous = readSessionCookie(req);
      if (previous) await deleteSessionByToken(app.deps.db, previous);
      setSessionCookie(req, reply, token);
      return { user: presentUser(user) };
    },
  );

  app.post(
    '/api/auth/logout',
    { config: open, schema: { ...tag, response: { 200: SuccessResponse } } },
    async (req, reply) => {
      const token = readSessionCookie(req);
      if (token) await auth.logout(app.deps.db, token, req.session);
      clearSessionCookie(req, reply);
      return { success: true as const };
    },
  );

  app.get(
    '/api/auth/me',
    { config: { access: 'signed-in' }, schema: { ...tag, response: { 200: MeResponse } } },
    async (req) => ({ user: presentUser(await auth.getUser(req.user)), permissions: allowedActions(req.user.role) }),
  );

  app.put(
    '/api/auth/profile',
    {
      config: { ...sessionOnly, rateLimit: perIp },
      schema: { ...tag, body: ProfileBody, response: { 200: ProfileResponse } },
    },
    async (req) => {
      const { user, pendingEmail } = await auth.updateProfile(app.deps, req.user, req.body);
      return { user: presentUser(user), pendingEmail };
    },
  );

  // Public: the link is opened from the new address's inbox, maybe on a device that is not signed in.
  app.post(
    '/api/auth/confirm-email',
    {
      schema: { ...tag, body: ConfirmEmailBody, response: { 200: MessageResponse } },
      config: { ...open, rateLimit: perIp },
    },
    async (req) => {
      const { email } = await auth.confirmEmailChange(app.deps, req.body.token);
      return { message: `Your e-mail address is now ${email}.` };
    },
  );

  app.put(
    '/api/auth/change-password',
    { config: sessionOnly, schema: { ...tag, body: ChangePasswordBody, response: { 200: SuccessResponse } } },
    async (req) => {
      await auth.changePassword(req.user, req.body);
      return { success: true as const, message: 'Password changed successfully' };
    },
  );

  app.get(
    '/api/auth/sessions',
    { config: sessionOnly, schema: { ...tag, response: { 200: z.array(SessionView) } } },
    async (req) => {
      return (await auth.listSessions(req.user, { idleMs: app.deps.config.sessionIdleMs })).map((s) =>
        presentSession(s, req.user.sessionHash),
      );
    },
  );

  app.post(
    '/api/auth/sessions/revoke-others',
    { config: sessionOnly, schema: { ...tag, response: { 200: RevokeOtherSessionsResponse } } },
    async (req) => {
      const revoked = await auth.revokeOtherSessions(req.user);
      return {
        revoked,
        message:
          revoked === 0
            ? 'You were not signed in anywhere else.'
            : `Signed out of ${revoked} other ${revoked === 1 ? 'session' : 'sessions'}.`,
      };
    },
  );

  app.post(
    '/api/auth/forgot-password',
    {
      schema: { ...tag, body: ForgotPasswordBody, response: { 200: MessageResponse } },
      config: { ...open, rateLimit: perIp },
    },
    async (req) => {
      await auth.requestPasswordReset(app.deps, req.body.email);
      return { message: 'Password reset email sent. Check your inbox for instructions.' };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      schema: { ...tag, body: ResetPasswordBody, response: { 200: SuccessResponse } },
      config: { ...open, rateLimit: perIp },
    },
    async (req) => {
      await auth.resetPassword(app.deps, req.body);
      return { success: true as const, message: 'Your password has been reset. Sign in with the new one.' };
    },
  );

  app.get(
    '/api/auth/invitations/:token',
    {
      schema: {
        ...tag,
        params: z.object({ token: z.string().min(10).max(200) }),
        response: { 200: InvitationPreview },
      },
      config: { ...open, rateLimit: perIp },
    },
    async (req) => auth.previewInvitation(app.deps.db, req.params.token),
  );

  app.get(
    '/api/auth/demo-credentials',
    { config: open, schema: { ...tag, response: { 200: DemoCredentials } } },
    async () => demoCredentials(app.deps),
  );
}
