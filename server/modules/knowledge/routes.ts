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
import { requireTenant } from '../../http/context';
import { authorize } from '../../http/policies';
import * as knowledge from './service';
import { importEntries } from './import';
import { exportAnswers } from './export';
import { listLibraryIssues } from './hygiene';
import { presentAnswer } from './presenters';

const tag = { tags: ['knowledge'] };
const base = '/api/canonical-answers';

export async function knowledgeRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    base,
    {
      config: { policy: 'knowledge:read' },
      schema: { ...tag, querystring: ListCanonicalAnswersQuery, response: { 200: z.array(CanonicalAnswerView) } },
    },
    async (req, reply) => {
      const ctx = await requireTenant(req);
      const { rows, total } = await knowledge.listAnswers(ctx, req.query);
      reply.header('X-Total-Count', String(total));
      return rows.map(presentAnswer);
    },
  );

  app.get(
    `${base}/counts`,
    {
      config: { policy: 'knowledge:read' },
      schema: { ...tag, querystring: LibraryFilterQuery.omit({ status: true }), response: { 200: LibraryCounts } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      return knowledge.countAnswers(ctx, req.query);
    },
  );

  app.get(
    `${base}/ids`,
    {
      config: { policy: 'knowledge:read' },
      schema: { ...tag, querystring: LibraryFilterQuery, response: { 200: LibraryIds } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      return { ids: await knowledge.listAnswerIds(ctx, req.query) };
    },
  );

  app.get(
    `${base}/tags`,
    { config: { policy: 'knowledge:read' }, schema: { ...tag, response: { 200: z.array(TagCount) } } },
    async (req) => {
      const ctx = await requireTenant(req);
      return knowledge.listTags(ctx);
    },
  );

  app.get(
    `${base}/issues`,
    { config: { policy: 'knowledge:read' }, schema: { ...tag, response: { 200: z.array(LibraryIssue) } } },
    async (req) => {
      const ctx = await requireTenant(req);
      return listLibraryIssues(ctx);
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { policy: 'knowledge:read' },
      schema: { ...tag, params: IdParams, response: { 200: CanonicalAnswerView } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      return presentAnswer(await knowledge.getAnswer(ctx, req.params.id));
    },
  );

  app.get(
    `${base}/:id/versions`,
    {
      config: { policy: 'knowledge:read' },
      schema: { ...tag, params: IdParams, response: { 200: z.array(AnswerVersionView) } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      return knowledge.listVersions(ctx, req.params.id);
    },
  );

  app.post(
    base,
    {
      config: { policy: 'knowledge:create_draft' },
      schema: { ...tag, body: CreateCanonicalAnswerBody, response: { 201: CanonicalAnswerView } },
    },
    async (req, reply) => {
      const ctx = await requireTenant(req);
      // Contributors add drafts; making an entry approved (or archived) from the start is an approver's call.
      if (req.body.status !== 'draft' || req.body.ownerId !== undefined) authorize(ctx, 'knowledge:approve');
      return reply.code(201).send(presentAnswer(await knowledge.createAnswer(ctx, req.body)));
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: { policy: 'knowledge:create_draft' },
      schema: { ...tag, params: IdParams, body: UpdateCanonicalAnswerBody, response: { 200: CanonicalAnswerView } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      return presentAnswer(await knowledge.updateAnswer(ctx, req.params.id, req.body));
    },
  );

  app.post(
    `${base}/:id/verify`,
    {
      config: { policy: 'knowledge:approve' },
      schema: { ...tag, params: IdParams, response: { 200: CanonicalAnswerView } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      return presentAnswer(await knowledge.verifyAnswer(ctx, req.params.id));
    },
  );

  app.delete(
    `${base}/:id`,
    {
      config: { policy: 'knowledge:delete' },
      schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      await knowledge.deleteAnswer(ctx, req.params.id);
      return { success: true as const };
    },
  );

  app.post(
    `${base}/import`,
    {
      config: { policy: 'knowledge:import' },
      bodyLimit: IMPORT_MAX_BYTES,
      schema: { ...tag, body: ImportBody, response: { 200: ImportResult } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      return importEntries(ctx, req.body);
    },
  );

  app.post(
    `${base}/export`,
    { config: { policy: 'knowledge:read' }, bodyLimit: ID_LIST_BODY_LIMIT, schema: { ...tag, body: ExportBody } },
    async (req, reply) => {
      const ctx = await requireTenant(req);
      const file = await exportAnswers(ctx, req.body);
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Disposition', `attachment; filename="${file.filename}"`)
        .header('Cache-Control', 'no-store')
        .send(file.body);
    },
  );
}
