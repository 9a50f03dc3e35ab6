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
import { AccuracyCalibration, AccuracyQuery, AccuracyView, CalibrationBody } from '../../../common/schemas/accuracy';
import { sendDownload } from '../../http/send-download';
import { listUsers } from '../organizations/service';
import { auditLogFilters, listAuditLogs, presentAuditLog } from '../audit/service';
import { presentAdminUser } from '../organizations/presenters';
import { accuracyView } from './accuracy';
import { exportAccuracy } from './accuracy-export';
import { setCalibration } from './calibration';
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

  // What reviewers did with the machine's answers in the current workspace (issue 36): managers and admins, as the
  // review itself. A workspace of another organization is "not found", as on every workspace route.
  app.get(
    '/api/admin/accuracy',
    {
      config: { access: 'accuracy:read', workspace: true },
      schema: { ...tag, querystring: AccuracyQuery, response: { 200: AccuracyView } },
    },
    async (req) => accuracyView(req.tenant, req.query),
  );

  app.get(
    '/api/admin/accuracy/export',
    { config: { access: 'accuracy:read', workspace: true }, schema: { ...tag, querystring: AccuracyQuery } },
    async (req, reply) => sendDownload(reply, await exportAccuracy(req.tenant, req.query)),
  );

  // The workspace's own calibration of the confidence (issue 36, item 4), off by default: it changes the confidence
  // the review screens show once the workspace has enough reviews, never which answer is chosen.
  app.put(
    '/api/admin/accuracy/calibration',
    {
      config: { access: 'accuracy:calibrate', workspace: true },
      schema: { ...tag, body: CalibrationBody, response: { 200: AccuracyCalibration } },
    },
    async (req) => setCalibration(req.tenant, req.body.enabled),
  );
}
