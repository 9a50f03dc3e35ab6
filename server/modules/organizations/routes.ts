import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChangeRoleBody,
  CreateInvitationBody,
  InvitationCreated,
  InvitationView,
  OrganizationStats,
  OrganizationView,
  UpdateOrganizationBody,
  UserIdParams,
} from '../../../common/schemas/organizations';
import { UserView } from '../../../common/schemas/auth';
import { IdParams, SuccessResponse } from '../../../common/schemas/errors';
import { requireTenant, requireUser } from '../../http/context';
import { authorize } from '../../http/policies';
import { presentUser } from '../auth/presenters';
import * as orgs from './service';
import { organizationStats } from './stats';
import { presentInvitation, presentOrganization } from './presenters';

const tag = { tags: ['organizations'] };

export async function organizationRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get('/api/organizations/current', { schema: { ...tag, response: { 200: OrganizationView } } }, async (req) => {
    const ctx = requireUser(req);
    authorize(ctx, 'organization:read');
    return presentOrganization(await orgs.getOrganization(ctx));
  });

  app.put(
    '/api/organizations/current',
    { schema: { ...tag, body: UpdateOrganizationBody, response: { 200: OrganizationView } } },
    async (req) => {
      const ctx = requireUser(req);
      authorize(ctx, 'organization:update');
      return presentOrganization(await orgs.updateOrganization(ctx, req.body));
    },
  );

  app.get('/api/organizations/stats', { schema: { ...tag, response: { 200: OrganizationStats } } }, async (req) => {
    const ctx = await requireTenant(req);
    authorize(ctx, 'stats:read');
    return organizationStats(ctx);
  });

  app.get('/api/organizations/users', { schema: { ...tag, response: { 200: z.array(UserView) } } }, async (req) => {
    const ctx = requireUser(req);
    authorize(ctx, 'users:read');
    return (await orgs.listUsers(ctx)).map(presentUser);
  });

  app.put(
    '/api/organizations/users/:userId/role',
    { schema: { ...tag, params: UserIdParams, body: ChangeRoleBody, response: { 200: UserView } } },
    async (req) => {
      const ctx = requireUser(req);
      authorize(ctx, 'users:manage');
      return presentUser(await orgs.changeUserRole(ctx, req.params.userId, req.body.role));
    },
  );

  app.delete(
    '/api/organizations/users/:userId',
    { schema: { ...tag, params: UserIdParams, response: { 200: SuccessResponse } } },
    async (req) => {
      const ctx = requireUser(req);
      authorize(ctx, 'users:manage');
      await orgs.removeUser(ctx, req.params.userId);
      return { success: true as const };
    },
  );

  app.post(
    '/api/organizations/invitations',
    { schema: { ...tag, body: CreateInvitationBody, response: { 201: InvitationCreated } } },
    async (req, reply) => {
      const ctx = requireUser(req);
      authorize(ctx, 'invitations:manage');
      return reply.code(201).send(await orgs.createInvitation(app.deps, ctx, req.body));
    },
  );

  app.get(
    '/api/organizations/invitations',
    { schema: { ...tag, response: { 200: z.array(InvitationView) } } },
    async (req) => {
      const ctx = requireUser(req);
      authorize(ctx, 'invitations:manage');
      return (await orgs.listInvitations(ctx)).map(presentInvitation);
    },
  );

  app.delete(
    '/api/organizations/invitations/:id',
    { schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } } },
    async (req) => {
      const ctx = requireUser(req);
      authorize(ctx, 'invitations:manage');
      await orgs.revokeInvitation(ctx, req.params.id);
      return { success: true as const };
    },
  );
}
