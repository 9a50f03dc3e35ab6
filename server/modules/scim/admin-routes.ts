import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams, SuccessResponse } from '../../../common/schemas/errors';
import { CreatedScimToken, ScimSettingsView } from '../../../common/schemas/sso';
import { createScimToken, revokeScimToken, scimSettings } from './tokens';

const tag = { tags: ['admin'] };
// The same right as the SSO settings; minting and revoking take a signed-in admin, never an API token.
const read = { access: 'sso:manage' } as const;
const manage = { access: 'sso:manage', sessionOnly: true } as const;

/** The admin's side of SCIM: the base URL to give the identity provider and the tokens it authenticates with. */
export async function scimAdminRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get('/api/admin/scim', { config: read, schema: { ...tag, response: { 200: ScimSettingsView } } }, async (req) =>
    scimSettings(req.user, app.deps.config.publicUrl),
  );

  app.post(
    '/api/admin/scim/tokens',
    { config: manage, bodyLimit: 1024, schema: { ...tag, response: { 201: CreatedScimToken } } },
    async (req, reply) => reply.code(201).send(await createScimToken(req.user)),
  );

  app.delete(
    '/api/admin/scim/tokens/:id',
    { config: manage, schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } } },
    async (req) => {
      await revokeScimToken(req.user, req.params.id);
      return { success: true as const, message: 'SCIM token revoked. Calls with it are refused from now on.' };
    },
  );
}
