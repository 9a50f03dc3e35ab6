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
import { presentUser } from '../auth/presenters';
import * as orgs from './service';
import { organizationStats } from './stats';
import { presentInvitation, presentOrganization } from './presenters';

const tag = { tags: ['organizations'] };

export async function organizationRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/organizations/current',
    { config: { access: 'organization:read' }, schema: { ...tag, response: { 200: OrganizationView } } },
    async (req) => presentOrganization(await orgs.getOrganization(req.user)),
  );

  app.put(
    '/api/organizations/current',
    {
      config: { access: 'organization:update' },
      schema: { ...tag, body: UpdateOrganizationBody, response: { 200: OrganizationView } },
    },
    async (req) => presentOrganization(await orgs.updateOrganization(req.user, req.body)),
  );

  app.get(
    '/api/organizations/stats',
    { config: { access: 'stats:read', workspace: true }, schema: { ...tag, response: { 200: OrganizationStats } } },
    async (req) => organizationStats(req.tenant),
  );

  app.get(
    '/api/organizations/users',
    { config: { access: 'users:read' }, schema: { ...tag, response: { 200: z.array(UserView) } } },
    async (req) => (await orgs.listUsers(req.user)).map(presentUser),
  );

  app.put(
    '/api/organizations/users/:userId/role',
    {
      config: { access: 'users:manage' },
      schema: { ...tag, params: UserIdParams, body: ChangeRoleBody, response: { 200: UserView } },
    },
    async (req) => presentUser(await orgs.changeUserRole(req.user, req.params.userId, req.body.role)),
  );

  app.delete(
    '/api/organizations/users/:userId',
    {
      config: { access: 'users:manage' },
      schema: { ...tag, params: UserIdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      await orgs.removeUser(req.user, req.params.userId);
      return { success: true as const };
    },
  );

  app.post(
    '/api/organizations/invitations',
    {
      config: { access: 'invitations:manage' },
      schema: { ...tag, body: CreateInvitationBody, response: { 201: InvitationCreated } },
    },
    async (req, reply) => reply.code(201).send(await orgs.createInvitation(app.deps, req.user, req.body)),
  );

  app.get(
    '/api/organizations/invitations',
    { config: { access: 'invitations:manage' }, schema: { ...tag, response: { 200: z.array(InvitationView) } } },
    async (req) => (await orgs.listInvitations(req.user)).map(presentInvitation),
  );

  app.delete(
    '/api/organizations/invitations/:id',
    {
      config: { access: 'invitations:manage' },
      schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      await orgs.revokeInvitation(req.user, req.params.id);
      return { success: true as const };
    },
  );
}
