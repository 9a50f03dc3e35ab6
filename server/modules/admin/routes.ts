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
} from '../../../common/schemas/admin';
import { listUsers } from '../organizations/service';
import { auditLogFilters, listAuditLogs, presentAuditLog } from '../audit/service';
import { presentAdminUser } from '../organizations/presenters';
import { organizationAnalytics } from './analytics';
import { engineStatus } from './engine';

const tag = { tags: ['admin'] };

export async function adminRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/admin/users',
    { config: { access: 'users:manage' }, schema: { ...tag, response: { 200: z.array(AdminUserRow) } } },
    async (req) => (await listUsers(req.user)).map(presentAdminUser),
  );

  app.get(
    '/api/admin/audit-logs',
    {
      config: { access: 'audit:read' },
      schema: { ...tag, querystring: AuditLogQuery, response: { 200: z.array(AuditLogRow) } },
    },
    async (req, reply) => {
      const { rows, total } = await listAuditLogs(req.user, req.query);
      reply.header('X-Total-Count', String(total));
      return rows.map(presentAuditLog);
    },
  );

  app.get(
    '/api/admin/audit-logs/filters',
    { config: { access: 'audit:read' }, schema: { ...tag, response: { 200: AuditLogFilters } } },
    async (req) => auditLogFilters(req.user),
  );

  // Admins see whether answers use the embedding model: without it (not installed, or refused its checksum) Verity
  // still answers, by keywords only, and the web app shows them a notice saying how to fix it.
  app.get(
    '/api/admin/engine',
    { config: { access: 'engine:read' }, schema: { ...tag, response: { 200: EngineStatusView } } },
    async () => engineStatus(app.deps),
  );

  app.get(
    '/api/admin/analytics',
    {
      config: { access: 'analytics:read' },
      schema: { ...tag, querystring: AnalyticsQuery, response: { 200: AnalyticsView } },
    },
    async (req) => organizationAnalytics(req.user, req.query.days),
  );
}
