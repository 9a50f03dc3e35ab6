import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helpers/app';
import { call, type Session } from './helpers/api';
import { createAnswer, createTenant, createTenantPair } from './helpers/factories';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ worker: false });
});
afterAll(() => app.close());

// With no library entry and no document in a fresh workspace, every question is answered 'Needs Review'.
const FEDRAMP = 'Do you hold FedRAMP High authorization?';
const PENTEST = 'Who performs your annual penetration test?';
const BUG_BOUNTY = 'Is there a public bug bounty program?';

async function ask(as: Session, question: string) {
  const res = await call(app, 'POST', '/api/qa/ask', { as, body: { question } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.data.answerType).toBe('unknown');
  return res.data as { id: string; createdAt: string };
}

type Task = { id: string; title: string; priority: string; assignee: string | null; askedAt: string; askCount: number };

async function tasks(as: Session, query = '') {
  const res = await call(app, 'GET', `/api/qa/tasks${query}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return { tasks: res.data as Task[], total: Number(res.headers['x-total-count']) };
}

async function pendingTasksStat(as: Session): Promise<number> {
  const res = await call(app, 'GET', '/api/organizations/stats', { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.data.pendingTasks as number;
}

describe('GET /api/qa/tasks', () => {
  it('lists unanswered questions once each, with the latest asker, how often and so how urgently', async () => {
    const t = await createTenant(app);
    const { admin, manager, contributor } = t.users;
    await ask(contributor, FEDRAMP);
    await ask(contributor, PENTEST);
    // Questions are trimmed when asked; inner spacing, case and punctuation are what merging folds.
    const latestFedramp = await ask(manager, 'do you hold   FEDRAMP high authorization');
    await ask(contributor, BUG_BOUNTY);
    await ask(manager, 'Is there a public bug-bounty program');
    await ask(admin, 'IS THERE A PUBLIC BUG BOUNTY PROGRAM?!');

    const { tasks: list, total } = await tasks(admin);
    expect(total).toBe(3);
    // Most urgent first (asked this week: twice or more is high, once medium; test/qa-tasks-triage.test.ts), then
    // latest first.
    expect(list.map((task) => [task.title, task.priority, task.askCount, task.assignee])).toEqual([
      ['IS THERE A PUBLIC BUG BOUNTY PROGRAM?!', 'high', 3, admin.username],
      ['do you hold   FEDRAMP high authorization', 'high', 2, manager.username],
      [PENTEST, 'medium', 1, contributor.username],
    ]);
    expect(list[1]).toMatchObject({ id: latestFedramp.id, askedAt: latestFedramp.createdAt });
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(['askCount', 'askedAt', 'assignee', 'id', 'priority', 'title']);

    const second = await tasks(admin, '?limit=1&offset=1');
    expect(second.total).toBe(3);
    expect(second.tasks.map((task) => task.title)).toEqual(['do you hold   FEDRAMP high authorization']);
    expect((await tasks(admin, '?offset=3')).tasks).toEqual([]);
    expect(await pendingTasksStat(admin)).toBe(3);
  });

  it('drops a question once a library entry answers it, and only that one', async () => {
    const t = await createTenant(app);
    const { admin, contributor } = t.users;
    await ask(contributor, FEDRAMP);
    await ask(contributor, 'do you hold fedramp high authorization');
    await ask(contributor, PENTEST);
    expect((await tasks(contributor)).total).toBe(2);
    expect(await pendingTasksStat(contributor)).toBe(2);

    // An entry on another topic answers neither.
    await createAnswer(app, admin, {
      question: 'Do you encrypt customer data at rest?',
      answer: 'Yes. Customer data at rest is encrypted with AES-256.',
    });
    expect((await tasks(contributor)).total).toBe(2);

    const entry = await createAnswer(app, admin, {
      question: FEDRAMP,
      answer: 'No. We hold FedRAMP Moderate and are working towards High.',
    });
    const after = await tasks(contributor);
    expect(after.tasks.map((task) => task.title)).toEqual([PENTEST]);
    expect(after.total).toBe(1);
    expect(await pendingTasksStat(admin)).toBe(1);

    // Archived, the entry no longer answers it: the task is back.
    const archived = await call(app, 'PUT', `/api/canonical-answers/${entry.id}`, {
      as: admin,
      body: { status: 'archived' },
    });
    expect(archived.statusCode, archived.body).toBe(200);
    expect((await tasks(contributor)).total).toBe(2);
  });

  it('leaves out questions asked more than 90 days ago', async () => {
    const t = await createTenant(app);
    const old = await ask(t.users.contributor, FEDRAMP);
    await ask(t.users.contributor, PENTEST);
    await app.database.db.execute(
      sql`update qa_entries set created_at = now() - interval '91 days' where id = ${old.id}`,
    );
    expect((await tasks(t.admin)).tasks.map((task) => task.title)).toEqual([PENTEST]);
    expect(await pendingTasksStat(t.admin)).toBe(1);
  });

  it("shows admin-level users everyone's tasks and others their own, while the stat counts everyone's", async () => {
    const t = await createTenant(app);
    const { admin, manager, contributor, viewer } = t.users;
    await ask(contributor, FEDRAMP);
    await ask(manager, PENTEST);
    await ask(manager, FEDRAMP);

    for (const user of [admin, manager]) {
      const seen = await tasks(user);
      expect(seen.total).toBe(2);
      expect(seen.tasks.find((task) => task.title === FEDRAMP)).toMatchObject({ askCount: 2 });
    }
    const own = await tasks(contributor);
    expect(own.tasks.map((task) => [task.title, task.askCount, task.assignee])).toEqual([
      [FEDRAMP, 1, contributor.username],
    ]);
    expect(own.total).toBe(1);
    expect(await tasks(viewer)).toEqual({ tasks: [], total: 0 });
    for (const user of [admin, manager, contributor, viewer]) expect(await pendingTasksStat(user)).toBe(2);
  });

  it("never shows another organization's tasks", async () => {
    const { a, b } = await createTenantPair(app);
    await ask(a.users.contributor, FEDRAMP);
    expect((await tasks(a.admin)).total).toBe(1);
    expect(await tasks(b.admin)).toEqual({ tasks: [], total: 0 });
    expect(await pendingTasksStat(b.admin)).toBe(0);
    const foreign = await call(app, 'GET', '/api/qa/tasks', {
      as: b.admin,
      headers: { 'x-workspace-id': a.workspaceId },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses bad paging and a caller without a session', async () => {
    const t = await createTenant(app);
    for (const [query, message] of [
      ['?limit=0', 'limit must be at least 1'],
      ['?limit=201', 'limit must be at most 200'],
      ['?limit=ten', 'limit must be a number'],
      ['?limit=2.5', 'limit must be a whole number'],
      ['?offset=-1', 'offset must be 0 or more'],
    ] as const) {
      const res = await call(app, 'GET', `/api/qa/tasks${query}`, { as: t.admin });
      expect(res.statusCode, query).toBe(400);
      expect(res.data.error, query).toContain(message);
    }
    expect((await call(app, 'GET', '/api/qa/tasks')).statusCode).toBe(401);
  });
});
