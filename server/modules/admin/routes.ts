import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminUserRow,
  AnalyticsQuery,
  AnalyticsView,
  AuditLogFilters,
  AuditLogQuery,
  AuditLogRow,
  EngineStatusView,
  SsoSettingsView,
  UpdateSsoBody,
} from '../../../common/schemas/admin';
import { requireUser } from '../../http/context';
import { authorize } from '../../http/policies';
import { listUsers } from '../organizations/service';
import { auditLogFilters, listAuditLogs } from '../audit/service';
import { presentAdminUser } from '../organizations/presenters';
import { getSsoSettings, removeSsoSettings, saveSsoSettings } from './sso';
import { organizationAnalytics } from './analytics';

const tag = { tags: ['admin'] };

export async function adminRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get('/api/admin/users', { schema: { ...tag, response: { 200: z.array(AdminUserRow) } } }, async (req) => {
    const ctx = requireUser(req);
    authorize(ctx, 'users:manage');
    return (await listUsers(ctx)).map(presentAdminUser);
  });

  app.get(
    '/api/admin/audit-logs',
    { schema: { ...tag, querystring: AuditLogQuery, response: { 200: z.array(AuditLogRow) } } },
    async (req, reply) => {
      const ctx = requireUser(req);
      authorize(ctx, 'audit:read');
      const { rows, total } = await listAuditLogs(ctx, req.query);
      reply.header('X-Total-Count', String(total));
      return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
    },
  );

  app.get('/api/admin/audit-logs/filters', { schema: { ...tag, response: { 200: AuditLogFilters } } }, async (req) => {
    const ctx = requireUser(req);
    authorize(ctx, 'audit:read');
    return auditLogFilters(ctx);
  });

  // Admins see whether answers use the embedding model: without it (not installed, or refused its checksum) Verity
  // still answers, by keywords only, and the web app shows them a notice saying how to fix it.
  app.get('/api/admin/engine', { schema: { ...tag, response: { 200: EngineStatusView } } }, async (req) => {
    const ctx = requireUser(req);
    authorize(ctx, 'engine:read');
    const { embedder, config } = req.server.deps;
    return {
      semantic: Boolean(embedder),
      provider: embedder ? embedder.kind : config.embedding.provider,
      model: embedder?.model ?? null,
    };
  });

  app.get(
    '/api/admin/analytics',
    { schema: { ...tag, querystring: AnalyticsQuery, response: { 200: AnalyticsView } } },
    async (req) => {
      const ctx = requireUser(req);
      authorize(ctx, 'analytics:read');
      return organizationAnalytics(ctx, req.query.days);
    },
  );

  app.get('/api/admin/sso', { schema: { ...tag, response: { 200: SsoSettingsView } } }, async (req) => {
    const ctx = requireUser(req);
    authorize(ctx, 'sso:manage');
    return getSsoSettings(ctx);
  });

  app.put(
    '/api/admin/sso',
    { schema: { ...tag, body: UpdateSsoBody, response: { 200: SsoSettingsView } } },
    async (req) => {
      const ctx = requireUser(req);
      authorize(ctx, 'sso:manage');
      const secret = app.deps.config.sessionSecret;
      // main.ts always sets one (SESSION_SECRET or DATA_DIR/secret); without it nothing could be sealed.
      if (!secret) throw new Error('SESSION_SECRET is needed to store SSO client secrets');
      return saveSsoSettings(ctx, secret, req.body);
    },
  );

  app.delete('/api/admin/sso', { schema: { ...tag, response: { 200: SsoSettingsView } } }, async (req) => {
    const ctx = requireUser(req);
    authorize(ctx, 'sso:manage');
    return removeSsoSettings(ctx);
  });
}
