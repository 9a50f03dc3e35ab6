import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AnswerEntryView,
  AskBody,
  AskManyBody,
  CreateSessionBody,
  HistoryEntryView,
  HistoryFilter,
  HistoryQuery,
  MatchesQuery,
  SessionView,
  TasksQuery,
  TaskView,
  TopMatch,
  UpdateSessionBody,
} from '../../../common/schemas/qa';
import { IdParams } from '../../../common/schemas/errors';
import { can } from '../../../common/policies';
import { toCsv } from '../../../common/import/csv-export';
import { requireTenant } from '../../http/context';
import * as qa from './service';
import { listTasks } from './tasks';
import { earlyRefusal, withinQaLimits } from './limits';

const tag = { tags: ['qa'] };
const SessionId = z.object({ id: z.string() });

/** Runs after the API hooks know the caller and before the body is read (see limits.ts). */
async function refuseEarly(req: FastifyRequest) {
  if (!req.session) return;
  const refusal = earlyRefusal(req.session, req.server.deps.config.qa);
  if (refusal) throw refusal;
}

export async function qaRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/qa/sessions',
    { config: { policy: 'qa:ask' }, schema: { ...tag, body: CreateSessionBody, response: { 201: SessionId } } },
    async (req, reply) => {
      const ctx = await requireTenant(req);
      const row = await qa.createSession(ctx, req.body);
      return reply.code(201).send({ id: row.id });
    },
  );

  app.put(
    '/api/qa/sessions/:id',
    {
      config: { policy: 'qa:ask' },
      schema: { ...tag, params: IdParams, body: UpdateSessionBody, response: { 200: SessionId } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      return { id: (await qa.renameSession(ctx, req.params.id, req.body.title)).id };
    },
  );

  app.get(
    '/api/qa/sessions',
    { config: { policy: 'chat_history:read' }, schema: { ...tag, response: { 200: z.array(SessionView) } } },
    async (req) => {
      const ctx = await requireTenant(req);
      return qa.listSessions(ctx, false);
    },
  );

  app.post(
    '/api/qa/ask',
    {
      config: { policy: 'qa:ask' },
      onRequest: refuseEarly,
      schema: { ...tag, body: AskBody, response: { 200: AnswerEntryView } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      // Recording an answer already shown costs no engine work, but is still a write: it counts like a question.
      return withinQaLimits(ctx, req.server.deps.config.qa, 1, () => qa.ask(ctx, req.body, req.server.deps));
    },
  );

  app.post(
    '/api/qa/entries',
    {
      config: { policy: 'qa:ask' },
      onRequest: refuseEarly,
      schema: { ...tag, body: AskManyBody, response: { 200: z.object({ entries: z.array(AnswerEntryView) }) } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      const { questions } = req.body;
      return {
        entries: await withinQaLimits(ctx, req.server.deps.config.qa, questions.length, () =>
          qa.askMany(ctx, req.body, req.server.deps),
        ),
      };
    },
  );

  app.get(
    '/api/qa/matches',
    {
      config: { policy: 'knowledge:read' },
      schema: { ...tag, querystring: MatchesQuery, response: { 200: z.array(TopMatch) } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      return qa.topMatches(ctx, req.query.q);
    },
  );

  app.get(
    '/api/qa/sessions/all',
    { config: { policy: 'chat_history:read' }, schema: { ...tag, response: { 200: z.array(SessionView) } } },
    async (req) => {
      const ctx = await requireTenant(req);
      return qa.listSessions(ctx, can(ctx.role, 'chat_history:read_all'));
    },
  );

  app.get(
    '/api/qa/entries/all',
    {
      config: { policy: 'chat_history:read' },
      schema: { ...tag, querystring: HistoryQuery, response: { 200: z.array(HistoryEntryView) } },
    },
    async (req, reply) => {
      const ctx = await requireTenant(req);
      const { entries, total } = await qa.listHistory(ctx, can(ctx.role, 'chat_history:read_all'), req.query);
      reply.header('X-Total-Count', String(total));
      return entries;
    },
  );

  // Built from chat history, so it shows what history shows: everyone's questions to admin-level users.
  app.get(
    '/api/qa/tasks',
    {
      config: { policy: 'chat_history:read' },
      schema: { ...tag, querystring: TasksQuery, response: { 200: z.array(TaskView) } },
    },
    async (req, reply) => {
      const ctx = await requireTenant(req);
      const { tasks, total } = await listTasks(ctx, can(ctx.role, 'chat_history:read_all'), req.query);
      reply.header('X-Total-Count', String(total));
      return tasks;
    },
  );

  app.post(
    '/api/qa/entries/export',
    { config: { policy: 'chat_history:read' }, schema: { ...tag, body: HistoryFilter } },
    async (req, reply) => {
      const ctx = await requireTenant(req);
      const { entries } = await qa.listHistory(ctx, can(ctx.role, 'chat_history:read_all'), {
        ...req.body,
        limit: 100_000,
        offset: 0,
      });
      const csv = toCsv([
        ['createdAt', 'user', 'question', 'answer', 'answerType', 'confidence', 'sources'],
        ...entries.map((e) => [
          e.createdAt,
          e.username ?? '',
          e.question,
          e.answer,
          e.answerType,
          String(e.confidence),
          e.sources
            .map((s) =>
              s.type === 'library'
                ? `Library: ${s.question ?? ''}`
                : `${s.name ?? ''}${s.pageNumber ? ` p.${s.pageNumber}` : ''}`,
            )
            .join('; '),
        ]),
      ]);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header(
          'Content-Disposition',
          `attachment; filename="chat_history-${new Date().toISOString().slice(0, 10)}.csv"`,
        )
        .header('Cache-Control', 'no-store')
        .send(csv);
    },
  );
}
