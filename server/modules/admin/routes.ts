import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AdminUserRow, AuditLogQuery, AuditLogRow } from '../../../common/schemas/admin';
import { requireUser } from '../../http/context';
import { authorize } from '../../http/policies';
import { listUsers } from '../organizations/service';
import { listAuditLogs } from '../audit/service';
import { presentAdminUser } from '../organizations/presenters';

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
}
