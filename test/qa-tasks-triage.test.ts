import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helpers/app';
import { call, type Session } from './helpers/api';
import { createTenant, createTenantPair } from './helpers/factories';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ worker: false });
});
afterAll(() => app.close());

const FEDRAMP = 'Do you hold FedRAMP High authorization?';
const PENTEST = 'Who performs your annual penetration test?';
const BUG_BOUNTY = 'Is there a public bug bounty program?';

async function ask(as: Session, question: string) {
  const res = await call(app, 'POST', '/api/qa/ask', { as, body: { question } });
  expect(res.statusCode, res.body).toBe(200);
  return res.data as { id: string };
}

type Task = { id: string; title: string; priority: string; askCount: number };

async function tasks(as: Session): Promise<Task[]> {
  const res = await call(app, 'GET', '/api/qa/tasks', { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.data as Task[];
}

const titles = async (as: Session) => (await tasks(as)).map((task) => task.title);
const dismiss = (as: Session, id: string) => call(app, 'POST', `/api/qa/tasks/${id}/dismiss`, { as });

async function backdate(id: string, days: number) {
  await app.database.db.execute(
    sql`update qa_entries set created_at = now() - make_interval(days => ${days}) where id = ${id}`,
  );
}

describe('what is a task', () => {
  it('leaves out greetings and thanks, which are not questions anyone has to answer', async () => {
    const t = await createTenant(app);
    for (const text of ['hi', 'Hello there!', 'thanks', 'Thank you very much.', 'ok', 'good morning']) {
      await ask(t.users.contributor, text);
    }
    await ask(t.users.contributor, PENTEST);
    expect(await titles(t.admin)).toEqual([PENTEST]);
    const stats = await call(app, 'GET', '/api/organizations/stats', { as: t.admin });
    expect(stats.data.pendingTasks).toBe(1);
  });
});

describe('task priority', () => {
  it('rises with how often and how recently a question was asked', async () => {
    const t = await createTenant(app);
    const { contributor, manager } = t.users;
    // Asked three times, long ago: high. Asked twice this week: high. Asked twice, weeks apart: medium.
    for (const id of [
      await ask(contributor, BUG_BOUNTY),
      await ask(manager, BUG_BOUNTY),
      await ask(manager, BUG_BOUNTY),
    ])
      await backdate(id.id, 40);
    await ask(contributor, FEDRAMP);
    await ask(manager, FEDRAMP);
    const oldSoc = await ask(contributor, 'Do you have a SOC 2 report?');
    await backdate(oldSoc.id, 30);
    const newerSoc = await ask(contributor, 'Do you have a SOC 2 report?');
    await backdate(newerSoc.id, 20);
    // Asked once this week: medium. Asked once a month ago: low.
    await ask(contributor, PENTEST);
    const old = await ask(contributor, 'Do you publish a status page?');
    await backdate(old.id, 30);

    const list = await tasks(t.admin);
    expect(list.map((task) => [task.title, task.priority])).toEqual([
      [FEDRAMP, 'high'],
      [BUG_BOUNTY, 'high'],
      [PENTEST, 'medium'],
      ['Do you have a SOC 2 report?', 'medium'],
      ['Do you publish a status page?', 'low'],
    ]);
  });
});

describe('POST /api/qa/tasks/:id/dismiss', () => {
  it('dismisses a task for the whole workspace until the question is asked again', async () => {
    const t = await createTenant(app);
    const { admin, contributor, manager } = t.users;
    await ask(contributor, FEDRAMP);
    const latest = await ask(manager, 'do you hold fedramp high authorization');
    await ask(contributor, PENTEST);

    const res = await dismiss(manager, latest.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toEqual({ dismissed: true });
    expect(await titles(admin)).toEqual([PENTEST]);
    expect(await titles(contributor)).toEqual([PENTEST]);
    const stats = await call(app, 'GET', '/api/organizations/stats', { as: admin });
    expect(stats.data.pendingTasks).toBe(1);
    // Dismissing twice changes nothing.
    expect((await dismiss(admin, latest.id)).statusCode).toBe(200);

    // Asked again afterwards, someone is waiting for it again.
    await ask(contributor, FEDRAMP);
    expect(await titles(admin)).toContain(FEDRAMP);

    // Another workspace of the organization keeps its own tasks.
    const ws = await call(app, 'POST', '/api/workspaces', { as: admin, body: { name: 'Second' } });
    const second = { ...admin, workspaceId: ws.data.id as string };
    const there = await ask(second, PENTEST);
    await dismiss(admin, (await tasks(admin)).find((task) => task.title === PENTEST)?.id ?? '');
    expect(await titles(second)).toEqual([PENTEST]);
    expect((await dismiss(admin, there.id)).statusCode).toBe(404);
  });

  it('lets a contributor dismiss only their own tasks, and no viewer or other tenant any', async () => {
    const { a, b } = await createTenantPair(app);
    const mine = await ask(a.users.contributor, FEDRAMP);
    const theirs = await ask(a.users.manager, PENTEST);

    expect((await dismiss(a.users.contributor, theirs.id)).statusCode).toBe(404);
    const viewer = await dismiss(a.users.viewer, mine.id);
    expect(viewer.statusCode).toBe(403);
    for (const as of [b.admin, b.users.contributor]) expect((await dismiss(as, mine.id)).statusCode).toBe(404);
    expect((await dismiss(a.users.contributor, 'not-an-id')).statusCode).toBe(400);
    expect((await call(app, 'POST', `/api/qa/tasks/${mine.id}/dismiss`)).statusCode).toBe(401);
    expect(await titles(a.admin)).toEqual(expect.arrayContaining([FEDRAMP, PENTEST]));

    expect((await dismiss(a.users.contributor, mine.id)).statusCode).toBe(200);
    expect(await titles(a.admin)).toEqual([PENTEST]);
  });

  it('refuses an answered question: only Needs Review answers are tasks', async () => {
    const t = await createTenant(app);
    await call(app, 'POST', '/api/canonical-answers', {
      as: t.admin,
      body: { question: FEDRAMP, answer: 'No. We hold FedRAMP Moderate.', tags: [], status: 'approved' },
    });
    const answered = await ask(t.users.contributor, FEDRAMP);
    expect((await dismiss(t.admin, answered.id)).statusCode).toBe(404);
  });
});
