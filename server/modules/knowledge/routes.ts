import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AnswerVersionView,
  CanonicalAnswerView,
  CreateCanonicalAnswerBody,
  ExportBody,
  ImportBody,
  ImportResult,
  LibraryCounts,
  LibraryFilterQuery,
  LibraryIds,
  LibraryIssue,
  ListCanonicalAnswersQuery,
  TagCount,
  UpdateCanonicalAnswerBody,
} from '../../../common/schemas/knowledge';
import { IdParams, SuccessResponse } from '../../../common/schemas/errors';
import { ID_LIST_BODY_LIMIT, IMPORT_MAX_BYTES } from '../../../common/constants';
import { sendDownload } from '../../http/send-download';
import * as knowledge from './service';
import { importEntries } from './import';
import { exportAnswers } from './export';
import { listLibraryIssues } from './hygiene';
import { presentAnswer } from './presenters';
import { suggestionRoutes } from './suggestions-routes';

const tag = { tags: ['knowledge'] };
const base = '/api/canonical-answers';

export async function knowledgeRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    base,
    {
      config: { access: 'knowledge:read', workspace: true },
      schema: { ...tag, querystring: ListCanonicalAnswersQuery, response: { 200: z.array(CanonicalAnswerView) } },
    },
    async (req, reply) => {
      const { rows, total } = await knowledge.listAnswers(req.tenant, req.query);
      reply.header('X-Total-Count', String(total));
      return rows.map(presentAnswer);
    },
  );

  app.get(
    `${base}/counts`,
    {
      config: { access: 'knowledge:read', workspace: true },
      schema: { ...tag, querystring: LibraryFilterQuery.omit({ status: true }), response: { 200: LibraryCounts } },
    },
    async (req) => knowledge.countAnswers(req.tenant, req.query),
  );

  app.get(
    `${base}/ids`,
    {
      config: { access: 'knowledge:read', workspace: true },
      schema: { ...tag, querystring: LibraryFilterQuery, response: { 200: LibraryIds } },
    },
    async (req) => ({ ids: await knowledge.listAnswerIds(req.tenant, req.query) }),
  );

  app.get(
    `${base}/tags`,
    { config: { access: 'knowledge:read', workspace: true }, schema: { ...tag, response: { 200: z.array(TagCount) } } },
    async (req) => knowledge.listTags(req.tenant),
  );

  app.get(
    `${base}/issues`,
    {
      config: { access: 'knowledge:read', workspace: true },
      schema: { ...tag, response: { 200: z.array(LibraryIssue) } },
    },
    async (req) => listLibraryIssues(req.tenant),
  );

  app.get(
    `${base}/:id`,
    {
      config: { access: 'knowledge:read', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: CanonicalAnswerView } },
    },
    async (req) => presentAnswer(await knowledge.getAnswer(req.tenant, req.params.id)),
  );

  app.get(
    `${base}/:id/versions`,
    {
      config: { access: 'knowledge:read', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: z.array(AnswerVersionView) } },
    },
    async (req) => knowledge.listVersions(req.tenant, req.params.id),
  );

  app.post(
    base,
    {
      config: { access: 'knowledge:create_draft', workspace: true },
      schema: { ...tag, body: CreateCanonicalAnswerBody, response: { 201: CanonicalAnswerView } },
    },
    async (req, reply) => reply.code(201).send(presentAnswer(await knowledge.createAnswer(req.tenant, req.body))),
  );

  app.put(
    `${base}/:id`,
    {
      config: { access: 'knowledge:create_draft', workspace: true },
      schema: { ...tag, params: IdParams, body: UpdateCanonicalAnswerBody, response: { 200: CanonicalAnswerView } },
    },
    async (req) => presentAnswer(await knowledge.updateAnswer(req.tenant, req.params.id, req.body)),
  );

  app.post(
    `${base}/:id/verify`,
    {
      config: { access: 'knowledge:approve', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: CanonicalAnswerView } },
    },
    async (req) => presentAnswer(await knowledge.verifyAnswer(req.tenant, req.params.id)),
  );

  app.delete(
    `${base}/:id`,
    {
      config: { access: 'knowledge:delete', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      await knowledge.deleteAnswer(req.tenant, req.params.id);
      return { success: true as const };
    },
  );

  app.post(
    `${base}/import`,
    {
      config: { access: 'knowledge:import', workspace: true },
      bodyLimit: IMPORT_MAX_BYTES,
      schema: { ...tag, body: ImportBody, response: { 200: ImportResult } },
    },
    async (req) => importEntries(req.tenant, req.body),
  );

  app.post(
    `${base}/export`,
    {
      config: { access: 'knowledge:read', workspace: true },
      bodyLimit: ID_LIST_BODY_LIMIT,
      schema: { ...tag, body: ExportBody },
    },
    async (req, reply) => sendDownload(reply, await exportAnswers(req.tenant, req.body)),
  );

  await suggestionRoutes(root);
}
