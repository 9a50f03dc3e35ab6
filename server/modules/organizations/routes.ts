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
import { presentUser } from '../auth/presenters';
import * as orgs from './service';
import { organizationStats } from './stats';
import { presentInvitation, presentOrganization } from './presenters';

const tag = { tags: ['organizations'] };

export async function organizationRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/organizations/current',
    { config: { policy: 'organization:read' }, schema: { ...tag, response: { 200: OrganizationView } } },
    async (req) => {
      const ctx = requireUser(req);
      return presentOrganization(await orgs.getOrganization(ctx));
    },
  );

  app.put(
    '/api/organizations/current',
    {
      config: { policy: 'organization:update' },
      schema: { ...tag, body: UpdateOrganizationBody, response: { 200: OrganizationView } },
    },
    async (req) => {
      const ctx = requireUser(req);
      return presentOrganization(await orgs.updateOrganization(ctx, req.body));
    },
  );

  app.get(
    '/api/organizations/stats',
    { config: { policy: 'stats:read' }, schema: { ...tag, response: { 200: OrganizationStats } } },
    async (req) => {
      const ctx = await requireTenant(req);
      return organizationStats(ctx);
    },
  );

  app.get(
    '/api/organizations/users',
    { config: { policy: 'users:read' }, schema: { ...tag, response: { 200: z.array(UserView) } } },
    async (req) => {
      const ctx = requireUser(req);
      return (await orgs.listUsers(ctx)).map(presentUser);
    },
  );

  app.put(
    '/api/organizations/users/:userId/role',
    {
      config: { policy: 'users:manage' },
      schema: { ...tag, params: UserIdParams, body: ChangeRoleBody, response: { 200: UserView } },
    },
    async (req) => {
      const ctx = requireUser(req);
      return presentUser(await orgs.changeUserRole(ctx, req.params.userId, req.body.role));
    },
  );

  app.delete(
    '/api/organizations/users/:userId',
    {
      config: { policy: 'users:manage' },
      schema: { ...tag, params: UserIdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      const ctx = requireUser(req);
      await orgs.removeUser(ctx, req.params.userId);
      return { success: true as const };
    },
  );

  app.post(
    '/api/organizations/invitations',
    {
      config: { policy: 'invitations:manage' },
      schema: { ...tag, body: CreateInvitationBody, response: { 201: InvitationCreated } },
    },
    async (req, reply) => {
      const ctx = requireUser(req);
      return reply.code(201).send(await orgs.createInvitation(app.deps, ctx, req.body));
    },
  );

  app.get(
    '/api/organizations/invitations',
    { config: { policy: 'invitations:manage' }, schema: { ...tag, response: { 200: z.array(InvitationView) } } },
    async (req) => {
      const ctx = requireUser(req);
      return (await orgs.listInvitations(ctx)).map(presentInvitation);
    },
  );

  app.delete(
    '/api/organizations/invitations/:id',
    {
      config: { policy: 'invitations:manage' },
      schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      const ctx = requireUser(req);
      await orgs.revokeInvitation(ctx, req.params.id);
      return { success: true as const };
    },
  );
}
