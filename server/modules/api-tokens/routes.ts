import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiTokenView, CreateApiTokenBody, CreatedApiToken } from '../../../common/schemas/api-tokens';
import { IdParams, SuccessResponse } from '../../../common/schemas/errors';
import { presentApiToken } from './presenters';
import * as tokens from './service';

const tag = { tags: ['admin'] };
// A token cannot mint or revoke tokens: that takes a signed-in admin.
const config = { sessionOnly: true };

export async function apiTokenRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/admin/api-tokens',
    {
      config: { ...config, access: 'api_tokens:manage' },
      schema: { ...tag, response: { 200: z.array(ApiTokenView) } },
    },
    async (req) => (await tokens.listApiTokens(req.user)).map(presentApiToken),
  );

  app.post(
    '/api/admin/api-tokens',
    {
      config: { ...config, access: 'api_tokens:manage' },
      bodyLimit: 4 * 1024,
      schema: { ...tag, body: CreateApiTokenBody, response: { 201: CreatedApiToken } },
    },
    async (req, reply) => {
      const { row, token } = await tokens.createApiToken(req.user, req.body);
      return reply.code(201).send({ ...presentApiToken(row), token });
    },
  );

  app.delete(
    '/api/admin/api-tokens/:id',
    {
      config: { ...config, access: 'api_tokens:manage' },
      schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      await tokens.revokeApiToken(req.user, req.params.id);
      return { success: true as const, message: 'Token revoked. Calls with it are refused from now on.' };
    },
  );
}
