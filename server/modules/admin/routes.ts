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
import { listUsers } from '../organizations/service';
import { auditLogFilters, listAuditLogs } from '../audit/service';
import { presentAdminUser } from '../organizations/presenters';
import { getSsoSettings, removeSsoSettings, saveSsoSettings } from './sso';
import { organizationAnalytics } from './analytics';

const tag = { tags: ['admin'] };

export async function adminRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/admin/users',
    { config: { policy: 'users:manage' }, schema: { ...tag, response: { 200: z.array(AdminUserRow) } } },
    async (req) => {
      const ctx = requireUser(req);
      return (await listUsers(ctx)).map(presentAdminUser);
    },
  );

  app.get(
    '/api/admin/audit-logs',
    {
      config: { policy: 'audit:read' },
      schema: { ...tag, querystring: AuditLogQuery, response: { 200: z.array(AuditLogRow) } },
    },
    async (req, reply) => {
      const ctx = requireUser(req);
      const { rows, total } = await listAuditLogs(ctx, req.query);
      reply.header('X-Total-Count', String(total));
      return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
    },
  );

  app.get(
    '/api/admin/audit-logs/filters',
    { config: { policy: 'audit:read' }, schema: { ...tag, response: { 200: AuditLogFilters } } },
    async (req) => {
      const ctx = requireUser(req);
      return auditLogFilters(ctx);
    },
  );

  // Admins see whether answers use the embedding model: without it (not installed, or refused its checksum) Verity
  // still answers, by keywords only, and the web app shows them a notice saying how to fix it.
  app.get(
    '/api/admin/engine',
    { config: { policy: 'engine:read' }, schema: { ...tag, response: { 200: EngineStatusView } } },
    async (req) => {
      requireUser(req);
      const { embedder, config } = req.server.deps;
      return {
        semantic: Boolean(embedder),
        provider: embedder ? embedder.kind : config.embedding.provider,
        model: embedder?.model ?? null,
      };
    },
  );

  app.get(
    '/api/admin/analytics',
    {
      config: { policy: 'analytics:read' },
      schema: { ...tag, querystring: AnalyticsQuery, response: { 200: AnalyticsView } },
    },
    async (req) => {
      const ctx = requireUser(req);
      return organizationAnalytics(ctx, req.query.days);
    },
  );

  app.get(
    '/api/admin/sso',
    { config: { policy: 'sso:manage' }, schema: { ...tag, response: { 200: SsoSettingsView } } },
    async (req) => {
      const ctx = requireUser(req);
      return getSsoSettings(ctx);
    },
  );

  app.put(
    '/api/admin/sso',
    { config: { policy: 'sso:manage' }, schema: { ...tag, body: UpdateSsoBody, response: { 200: SsoSettingsView } } },
    async (req) => {
      const ctx = requireUser(req);
      const secret = app.deps.config.sessionSecret;
      // main.ts always sets one (SESSION_SECRET or DATA_DIR/secret); without it nothing could be sealed.
      if (!secret) throw new Error('SESSION_SECRET is needed to store SSO client secrets');
      return saveSsoSettings(ctx, secret, req.body);
    },
  );

  app.delete(
    '/api/admin/sso',
    { config: { policy: 'sso:manage' }, schema: { ...tag, response: { 200: SsoSettingsView } } },
    async (req) => {
      const ctx = requireUser(req);
      return removeSsoSettings(ctx);
    },
  );
}
