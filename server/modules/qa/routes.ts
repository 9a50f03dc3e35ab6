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
  SessionDetailView,
  SessionsQuery,
  SessionView,
  TaskDismissed,
  TasksQuery,
  TaskView,
  TopMatch,
  UpdateSessionBody,
} from '../../../common/schemas/qa';
import { IdParams } from '../../../common/schemas/errors';
import { sendDownload } from '../../http/send-download';
import * as qa from './service';
import { dismissTask, listTasks } from './tasks';
import { earlyRefusal } from './limits';
import { exportHistory } from './history-export';

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
  const { deps } = root;

  app.post(
    '/api/qa/sessions',
    {
      config: { access: 'qa:ask', workspace: true },
      schema: { ...tag, body: CreateSessionBody, response: { 201: SessionId } },
    },
    async (req, reply) => reply.code(201).send({ id: (await qa.createSession(req.tenant, req.body)).id }),
  );

  app.put(
    '/api/qa/sessions/:id',
    {
      config: { access: 'qa:ask', workspace: true },
      schema: { ...tag, params: IdParams, body: UpdateSessionBody, response: { 200: SessionId } },
    },
    async (req) => ({ id: (await qa.renameSession(req.tenant, req.params.id, req.body.title)).id }),
  );

  app.get(
    '/api/qa/sessions',
    {
      config: { access: 'chat_history:read', workspace: true },
      schema: { ...tag, querystring: SessionsQuery, response: { 200: z.array(SessionView) } },
    },
    async (req) => qa.listSessions(req.tenant, 'own', req.query.limit),
  );

  // Reopening a chat on Ask (PRODUCT §7): whoever may read it in Chat History may read it here.
  app.get(
    '/api/qa/sessions/:id',
    {
      config: { access: 'chat_history:read', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: SessionDetailView } },
    },
    async (req) => qa.getSessionDetail(req.tenant, req.params.id),
  );

  app.post(
    '/api/qa/ask',
    {
      config: { access: 'qa:ask', workspace: true },
      onRequest: refuseEarly,
      schema: { ...tag, body: AskBody, response: { 200: AnswerEntryView } },
    },
    async (req) => qa.ask(deps, req.tenant, req.body),
  );

  app.post(
    '/api/qa/entries',
    {
      config: { access: 'qa:ask', workspace: true },
      onRequest: refuseEarly,
      schema: { ...tag, body: AskManyBody, response: { 200: z.object({ entries: z.array(AnswerEntryView) }) } },
    },
    async (req) => ({ entries: await qa.askMany(deps, req.tenant, req.body) }),
  );

  app.get(
    '/api/qa/matches',
    {
      config: { access: 'knowledge:read', workspace: true },
      schema: { ...tag, querystring: MatchesQuery, response: { 200: z.array(TopMatch) } },
    },
    async (req) => qa.topMatches(req.tenant, req.query.q),
  );

  app.get(
    '/api/qa/sessions/all',
    {
      config: { access: 'chat_history:read', workspace: true },
      schema: { ...tag, response: { 200: z.array(SessionView) } },
    },
    async (req) => qa.listSessions(req.tenant, 'visible'),
  );

  app.get(
    '/api/qa/entries/all',
    {
      config: { access: 'chat_history:read', workspace: true },
      schema: { ...tag, querystring: HistoryQuery, response: { 200: z.array(HistoryEntryView) } },
    },
    async (req, reply) => {
      const { entries, total } = await qa.listHistory(req.tenant, req.query);
      reply.header('X-Total-Count', String(total));
      return entries;
    },
  );

  // Built from chat history, so it shows what history shows: everyone's questions to admin-level users.
  app.get(
    '/api/qa/tasks',
    {
      config: { access: 'chat_history:read', workspace: true },
      schema: { ...tag, querystring: TasksQuery, response: { 200: z.array(TaskView) } },
    },
    async (req, reply) => {
      const { tasks, total } = await listTasks(req.tenant, req.query);
      reply.header('X-Total-Count', String(total));
      return tasks;
    },
  );

  // Whoever can answer a task (add it to the library) can decide it needs no answer.
  app.post(
    '/api/qa/tasks/:id/dismiss',
    {
      config: { access: 'knowledge:create_draft', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: TaskDismissed } },
    },
    async (req) => {
      await dismissTask(req.tenant, req.params.id);
      return { dismissed: true as const };
    },
  );

  app.post(
    '/api/qa/entries/export',
    { config: { access: 'chat_history:read', workspace: true }, schema: { ...tag, body: HistoryFilter } },
    async (req, reply) => sendDownload(reply, await exportHistory(req.tenant, req.body)),
  );
}
