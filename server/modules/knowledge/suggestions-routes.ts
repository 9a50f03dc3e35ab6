import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApproveSuggestionBody,
  CreateSuggestionBody,
  ListSuggestionsQuery,
  RejectSuggestionBody,
  SuggestionView,
} from '../../../common/schemas/knowledge';
import { IdParams } from '../../../common/schemas/errors';
import * as suggestions from './suggestions';

const tag = { tags: ['knowledge'] };
const base = '/api/library-suggestions';

/** PRODUCT §5 approval inbox: answers proposed for the library by people who may not approve entries. */
export async function suggestionRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    base,
    {
      config: { access: 'knowledge:create_draft', workspace: true },
      schema: { ...tag, querystring: ListSuggestionsQuery, response: { 200: z.array(SuggestionView) } },
    },
    async (req) => suggestions.listSuggestions(req.tenant, req.query),
  );

  app.post(
    base,
    {
      config: { access: 'knowledge:create_draft', workspace: true },
      schema: { ...tag, body: CreateSuggestionBody, response: { 201: SuggestionView } },
    },
    async (req, reply) => reply.code(201).send(await suggestions.suggest(req.tenant, req.body)),
  );

  app.post(
    `${base}/:id/approve`,
    {
      config: { access: 'knowledge:approve', workspace: true },
      schema: { ...tag, params: IdParams, body: ApproveSuggestionBody, response: { 200: SuggestionView } },
    },
    async (req) => suggestions.approveSuggestion(app.deps, req.tenant, req.params.id, req.body),
  );

  app.post(
    `${base}/:id/reject`,
    {
      config: { access: 'knowledge:approve', workspace: true },
      schema: { ...tag, params: IdParams, body: RejectSuggestionBody, response: { 200: SuggestionView } },
    },
    async (req) => suggestions.rejectSuggestion(app.deps, req.tenant, req.params.id, req.body.reason),
  );
}
