import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateWorkspaceBody,
  ListWorkspacesQuery,
  UpdateWorkspaceBody,
  WorkspaceView,
} from '../../../common/schemas/workspaces';
import { IdParams, SuccessResponse } from '../../../common/schemas/errors';
import { requireUser } from '../../http/context';
import { notFound } from '../../http/errors';
import * as ws from './service';

const tag = { tags: ['workspaces'] };

export async function workspaceRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/workspaces',
    {
      config: { policy: 'workspaces:read' },
      schema: { ...tag, querystring: ListWorkspacesQuery, response: { 200: z.array(WorkspaceView) } },
    },
    async (req) => {
      const ctx = requireUser(req);
      // Another organization's id is answered like one that does not exist.
      if (req.query.organizationId && req.query.organizationId !== ctx.organizationId) throw notFound('Organization');
      return (await ws.listWorkspaces(ctx)).map(ws.presentWorkspace);
    },
  );

  app.post(
    '/api/workspaces',
    {
      config: { policy: 'workspaces:manage' },
      schema: { ...tag, body: CreateWorkspaceBody, response: { 201: WorkspaceView } },
    },
    async (req, reply) => {
      const ctx = requireUser(req);
      return reply.code(201).send(ws.presentWorkspace(await ws.createWorkspace(ctx, req.body)));
    },
  );

  app.put(
    '/api/workspaces/:id',
    {
      config: { policy: 'workspaces:manage' },
      schema: { ...tag, params: IdParams, body: UpdateWorkspaceBody, response: { 200: WorkspaceView } },
    },
    async (req) => {
      const ctx = requireUser(req);
      return ws.presentWorkspace(await ws.updateWorkspace(ctx, req.params.id, req.body));
    },
  );

  app.delete(
    '/api/workspaces/:id',
    {
      config: { policy: 'workspaces:manage' },
      schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      const ctx = requireUser(req);
      await ws.deleteWorkspace({ ...ctx, storage: req.server.deps.storage }, req.params.id);
      return { success: true as const };
    },
  );
}
