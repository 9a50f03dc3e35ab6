import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Session } from './helpers/api';
import { createTestApp, type TestApp } from './helpers/app';
import { importCsv, postMultipart, waitForBatch } from './helpers/assessments';
import { createTenant, createTenantPair, createUser } from './helpers/factories';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

async function newSession(as: Session, title = 'New Chat', customerName?: string): Promise<string> {
  const res = await call(app, 'POST', '/api/qa/sessions', { as, body: { title, customerName } });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as string;
}

async function askIn(as: Session, sessionId: string, question: string) {
  const res = await call(app, 'POST', '/api/qa/ask', { as, body: { question, sessionId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.data as { id: string };
}

const getSession = (as: Session, id: string) => call(app, 'GET', `/api/qa/sessions/${id}`, { as });

/** A questionnaire of `n` distinct questions, as a CSV file. */
function questionnaire(n: number): string {
  const rows = Array.from({ length: n }, (_, i) => `Q${i + 1},Is control number ${i + 1} reviewed every quarter?,`);
  return ['ID,Question,Response', ...rows].join('\n');
}

/** A bulk assessment started from Ask: its own session, then the file imported into it. */
async function assessmentFromAsk(as: Session, n: number) {
  const sessionId = await newSession(as, 'Bulk Assessment - Globex', 'Globex');
  const res = await postMultipart(
    app,
    '/api/import-qa',
    as,
    { customerName: 'Globex', sessionId },
    {
      name: 'globex.csv',
      bytes: questionnaire(n),
      type: 'text/csv',
    },
  );
  expect(res.statusCode, res.body).toBe(201);
  await waitForBatch(app, as, res.data.id);
  return { sessionId, batchId: res.data.id as string };
}

async function monthlyQueries(as: Session): Promise<number> {
  const res = await call(app, 'GET', '/api/organizations/stats', { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.data.monthlyQueries as number;
}

describe('GET /api/qa/sessions/:id (reopening a chat)', () => {
  it('returns the caller’s chat with its questions and answers, oldest first', async () => {
    const t = await createTenant(app);
    const { contributor } = t.users;
    const id = await newSession(contributor);
    await askIn(contributor, id, 'Do you hold FedRAMP High authorization?');
    await askIn(contributor, id, 'Who performs your annual penetration test?');
    await call(app, 'PUT', `/api/qa/sessions/${id}`, { as: contributor, body: { title: 'FedRAMP and pentests' } });

    const res = await getSession(contributor, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.session).toMatchObject({
      id,
      title: 'FedRAMP and pentests',
      userId: contributor.id,
      username: contributor.username,
      entryCount: 2,
    });
    expect(res.data.assessment).toBeNull();
    expect(res.data.entries.map((e: { question: string; answerType: string }) => [e.question, e.answerType])).toEqual([
      ['Do you hold FedRAMP High authorization?', 'unknown'],
      ['Who performs your annual penetration test?', 'unknown'],
    ]);
  });

  it('shows a manager another member’s chat, but nobody else’s to a contributor or another tenant', async () => {
    const { a, b } = await createTenantPair(app);
    const id = await newSession(a.users.contributor);
    await askIn(a.users.contributor, id, 'Do you hold FedRAMP High authorization?');

    // Admin-level roles read everyone's history, so they may read the chat (asking in it stays the owner's).
    expect((await getSession(a.users.manager, id)).statusCode).toBe(200);
    expect((await getSession(a.users.admin, id)).statusCode).toBe(200);
    const managerAsks = await call(app, 'POST', '/api/qa/ask', {
      as: a.users.manager,
      body: { question: 'Do you hold FedRAMP High authorization?', sessionId: id },
    });
    expect(managerAsks.statusCode).toBe(404);

    // Others see only their own history: someone else's chat is "not found", as is another organization's.
    const secondContributor = await createUser(app, a.admin, 'contributor');
    for (const as of [a.users.viewer, secondContributor, b.admin, b.users.manager]) {
      const res = await getSession(as, id);
      expect(res.statusCode).toBe(404);
      expect(res.data.error).toBe('Session not found');
    }
    // Another organization's admin naming this workspace is refused before any chat is looked at.
    const foreign = await call(app, 'GET', `/api/qa/sessions/${id}`, {
      as: b.admin,
      headers: { 'x-workspace-id': a.workspaceId },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('is "not found" in another workspace of the same organization', async () => {
    const t = await createTenant(app);
    const id = await newSession(t.admin);
    await askIn(t.admin, id, 'Do you hold FedRAMP High authorization?');
    const ws = await call(app, 'POST', '/api/workspaces', { as: t.admin, body: { name: 'Second' } });
    expect(ws.statusCode, ws.body).toBe(201);
    const res = await getSession({ ...t.admin, workspaceId: ws.data.id }, id);
    expect(res.statusCode).toBe(404);
  });

  it('refuses an id that is not a session id, and a caller without a session', async () => {
    const t = await createTenant(app);
    expect((await getSession(t.admin, 'not-a-uuid')).statusCode).toBe(400);
    expect((await call(app, 'GET', `/api/qa/sessions/${crypto.randomUUID()}`)).statusCode).toBe(401);
  });

  it('lists the caller’s own chats newest first, for the recent chats on Ask', async () => {
    const t = await createTenant(app);
    const first = await newSession(t.users.contributor, 'First');
    const second = await newSession(t.users.contributor, 'Second');
    await newSession(t.users.manager, 'Not mine');
    const res = await call(app, 'GET', '/api/qa/sessions?limit=1', { as: t.users.contributor });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.map((s: { id: string }) => s.id)).toEqual([second]);
    const all = await call(app, 'GET', '/api/qa/sessions', { as: t.users.contributor });
    expect(all.data.map((s: { id: string }) => s.id)).toEqual([second, first]);
    const bad = await call(app, 'GET', '/api/qa/sessions?limit=0', { as: t.users.contributor });
    expect(bad.statusCode).toBe(400);
  });
});

describe('a bulk assessment started from Ask', () => {
  it('keeps exactly its questions in its chat: a follow-up question is refused, a regenerated answer is not a new one', async () => {
    const t = await createTenant(app);
    const { contributor } = t.users;
    const { sessionId, batchId } = await assessmentFromAsk(contributor, 5);

    const follow = await call(app, 'POST', '/api/qa/ask', {
      as: contributor,
      body: { question: 'hi', sessionId },
    });
    expect(follow.statusCode).toBe(409);
    expect(follow.data.error).toContain('Start a new chat');
    const many = await call(app, 'POST', '/api/qa/entries', {
      as: contributor,
      body: { questions: ['Do you have a SOC 2 report?'], sessionId },
    });
    expect(many.statusCode).toBe(409);

    // Regenerating one answer answers it again; the chat still holds each question once.
    const detail = await call(app, 'GET', `/api/assessments/${batchId}`, { as: contributor });
    const qid = detail.data.questions[0].id as string;
    const regen = await call(app, 'POST', `/api/assessments/${batchId}/questions/${qid}/regenerate`, {
      as: contributor,
    });
    expect(regen.statusCode, regen.body).toBe(200);
    await waitForBatch(app, contributor, batchId);

    const sessions = await call(app, 'GET', '/api/qa/sessions/all', { as: contributor });
    expect(sessions.data.find((s: { id: string }) => s.id === sessionId)).toMatchObject({ entryCount: 5 });
    const reopened = await getSession(contributor, sessionId);
    expect(reopened.data.session.entryCount).toBe(5);
    expect(reopened.data.assessment).toMatchObject({
      id: batchId,
      customerName: 'Globex',
      fileName: 'globex.csv',
      totalQuestions: 5,
    });
  });

  it('counts in Queries This Month the same as one imported on Bulk Assessments: only asked questions count', async () => {
    const t = await createTenant(app);
    const { contributor } = t.users;
    const chat = await newSession(contributor);
    await askIn(contributor, chat, 'Do you hold FedRAMP High authorization?');
    await askIn(contributor, chat, 'Who performs your annual penetration test?');
    expect(await monthlyQueries(contributor)).toBe(2);

    await assessmentFromAsk(contributor, 3);
    const fromBulk = await importCsv(app, contributor, `Question\n"Do you run a bug bounty?"\n"Do you log access?"\n`);
    await waitForBatch(app, contributor, fromBulk.id);
    expect(await monthlyQueries(contributor)).toBe(2);
  });

  it('leaves its unanswered questions to the assessment’s review, not to the pending tasks', async () => {
    const t = await createTenant(app);
    const { contributor, admin } = t.users;
    const { batchId } = await assessmentFromAsk(contributor, 2);
    await askIn(contributor, await newSession(contributor), 'Who performs your annual penetration test?');

    const tasks = await call(app, 'GET', '/api/qa/tasks', { as: admin });
    expect(tasks.data.map((task: { title: string }) => task.title)).toEqual([
      'Who performs your annual penetration test?',
    ]);

    // An answer written in the review leaves nothing behind in the tasks either.
    const detail = await call(app, 'GET', `/api/assessments/${batchId}`, { as: contributor });
    const qid = detail.data.questions[0].id as string;
    const edited = await call(app, 'PUT', `/api/assessments/${batchId}/questions/${qid}`, {
      as: contributor,
      body: { answer: 'Yes, every quarter by the security team.' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const stats = await call(app, 'GET', '/api/organizations/stats', { as: admin });
    expect(stats.data.pendingTasks).toBe(1);
  });
});
