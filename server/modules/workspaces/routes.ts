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
import * as ws from './service';

const tag = { tags: ['workspaces'] };

export async function workspaceRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/workspaces',
    {
      config: { access: 'workspaces:read' },
      schema: { ...tag, querystring: ListWorkspacesQuery, response: { 200: z.array(WorkspaceView) } },
    },
    async (req) => {
      // Another organization's id is answered like one that does not exist.
      return (await ws.listWorkspaces(req.user, req.query)).map(ws.presentWorkspace);
    },
  );

  app.post(
    '/api/workspaces',
    {
      config: { access: 'workspaces:manage' },
      schema: { ...tag, body: CreateWorkspaceBody, response: { 201: WorkspaceView } },
    },
    async (req, reply) => reply.code(201).send(ws.presentWorkspace(await ws.createWorkspace(req.user, req.body))),
  );

  app.put(
    '/api/workspaces/:id',
    {
      config: { access: 'workspaces:manage' },
      schema: { ...tag, params: IdParams, body: UpdateWorkspaceBody, response: { 200: WorkspaceView } },
    },
    async (req) => ws.presentWorkspace(await ws.updateWorkspace(req.user, req.params.id, req.body)),
  );

  app.delete(
    '/api/workspaces/:id',
    {
      config: { access: 'workspaces:manage' },
      schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      await ws.deleteWorkspace(base.deps, req.user, req.params.id);
      return { success: true as const };
    },
  );
}
