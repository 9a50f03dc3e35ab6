import pino from 'pino';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createAnswer, createOrg } from './helpers/factories';
import { qaEntries } from '../server/db/schema';
import { warmRecentWorkspaces } from '../server/engine/warm-up';

// Its own database: the workspaces other files asked in must not count as recent here.
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ privateDatabase: true });
});
afterAll(() => app.close());

const log = pino({ level: 'silent' });

async function orgThatAsked(question: string) {
  const org = await createOrg(app);
  await createAnswer(app, org.admin, {
    question: 'Is there an information security policy approved by management?',
    answer: 'Yes. The board approves it every year.',
    tags: ['policy'],
  });
  const res = await call(app, 'POST', '/api/qa/ask', { as: org.admin, body: { question } });
  expect(res.statusCode).toBe(200);
  return org;
}

const entries = async () =>
  ((await app.database.db.execute(sql`select count(*)::int as n from qa_entries`)) as { rows: { n: number }[] }).rows[0]
    ?.n;

describe('warming up after a start', () => {
  it('answers a question in the workspaces asked in lately, most recent first, and writes nothing', async () => {
    const stale = await orgThatAsked('Do you encrypt backups?');
    await app.database.db
      .update(qaEntries)
      .set({ createdAt: new Date(Date.now() - 30 * 86_400_000) })
      .where(eq(qaEntries.workspaceId, stale.workspaceId));
    const earlier = await orgThatAsked('Do you rotate keys?');
    const latest = await orgThatAsked('Do you train staff?');
    await createOrg(app); // never asked anything
    const before = await entries();

    const warmed = await warmRecentWorkspaces(app.database.db, null, log, { max: 5, days: 14 });
    expect(warmed.map((w) => w.workspaceId)).toEqual([latest.workspaceId, earlier.workspaceId]);
    expect(warmed[0]?.organizationId).toBe(latest.organizationId);
    expect(await entries()).toBe(before);

    expect((await warmRecentWorkspaces(app.database.db, null, log, { max: 1, days: 14 })).length).toBe(1);
    expect(await warmRecentWorkspaces(app.database.db, null, log, { max: 0, days: 14 })).toEqual([]);
  });
});
