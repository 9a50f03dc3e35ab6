import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { call } from '../helpers/api';
import { createAnswer, createOrg, createUser, type TestUser } from '../helpers/factories';
import { qaInflight } from '../../server/db/schema';
import { RETRIEVAL_MAX_CHARS } from '../../common/constants';
import { timeLeftInTest } from '../helpers/wait';

/**
 * Issue 16, finding 1: one organization's questions must not stall the server for everyone. Each question's cost is
 * bounded, the work yields to other requests, and ask/entries have per-user and per-organization limits (429 with
 * Retry-After) counted in the database, so every API process shares them.
 */

const QUESTIONS = [
  'Do you encrypt customer data at rest?',
  'Do you enforce multi-factor authentication for administrators?',
  'Do you perform annual penetration tests?',
  'How long do you retain audit logs?',
];

async function library(app: TestApp, admin: TestUser, n: number) {
  const entries = Array.from({ length: n }, (_, i) => ({
    question: `${QUESTIONS[i % QUESTIONS.length]?.replace('?', '')} for system ${i}?`,
    answer: `Yes. Control ${i} covers it, reviewed every year.`,
    tags: [`area-${i % 7}`],
  }));
  const res = await call(app, 'POST', '/api/canonical-answers/import', { as: admin, body: { entries } });
  expect(res.statusCode).toBeLessThan(300);
}

const ask = (app: TestApp, as: TestUser, question: string) =>
  call(app, 'POST', '/api/qa/ask', { as, body: { question } });
const askMany = (app: TestApp, as: TestUser, questions: string[]) =>
  call(app, 'POST', '/api/qa/entries', { as, body: { questions } });

async function historySize(app: TestApp, as: TestUser): Promise<number> {
  const res = await call(app, 'GET', '/api/qa/entries/all', { as });
  return Number(res.headers['x-total-count']);
}

describe('a question longer than the engine reads', () => {
  let app: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    app = await createTestApp({ worker: false });
    admin = (await createOrg(app)).admin;
    await createAnswer(app, admin, {
      question: 'Do you encrypt customer data at rest?',
      answer: 'Yes. AES-256 on every volume.',
    });
  });
  afterAll(() => app.close());

  it('is answered from its first part, and the answer says only that part was read', async () => {
    const padding = ' Please describe the controls, the owners, the evidence and the review cadence in detail.';
    const long = `Do you encrypt customer data at rest?${padding.repeat(40)}`.slice(0, 1990);
    expect(long.length).toBeGreaterThan(RETRIEVAL_MAX_CHARS);
    const res = await ask(app, admin, long);
    expect(res.statusCode).toBe(200);
    expect(res.data.question).toBe(long);
    expect(res.data.answerType).toBe('canonical');
    expect(res.data.note).toContain(`only its first ${RETRIEVAL_MAX_CHARS.toLocaleString('en-US')}`);

    const short = await ask(app, admin, 'Do you encrypt customer data at rest?');
    expect(short.data.note ?? null).toBeNull();
  });
});

describe('questions per minute', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({
      worker: false,
      env: { QA_QUESTIONS_PER_MINUTE_PER_USER: '3', QA_QUESTIONS_PER_MINUTE_PER_ORG: '5' },
    });
  });
  afterAll(() => app.close());

  it('refuses a user past their limit with 429 and Retry-After, recording nothing, and others still ask', async () => {
    const org = await createOrg(app);
    const colleague = await createUser(app, org.admin, 'contributor');
    const other = await createOrg(app);

    for (let i = 0; i < 3; i += 1) expect((await ask(app, org.admin, QUESTIONS[i] ?? '')).statusCode).toBe(200);
    const before = await historySize(app, org.admin);
    const refused = await ask(app, org.admin, 'Do you have a SOC 2 report?');
    expect(refused.statusCode).toBe(429);
    expect(refused.data).toMatchObject({ code: 'rate_limited' });
    expect(refused.data.error).toContain('You can ask up to 3 questions a minute');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(await historySize(app, org.admin)).toBe(before);

    // A batch counts each of its questions: two fit the colleague's budget, the organization's (5) is then used up.
    expect((await askMany(app, colleague, QUESTIONS.slice(0, 3))).statusCode).toBe(429);
    expect((await askMany(app, colleague, QUESTIONS.slice(0, 2))).statusCode).toBe(200);
    const orgFull = await ask(app, colleague, 'Do you have a SOC 2 report?');
    expect(orgFull.statusCode).toBe(429);
    expect(orgFull.data.error).toContain('Your organization can ask up to 5 questions a minute');

    // Another organization is not touched by the first one's use.
    expect((await ask(app, other.admin, 'Do you have a SOC 2 report?')).statusCode).toBe(200);
  });
});

describe('requests at once', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({
      worker: false,
      env: { QA_CONCURRENT_REQUESTS_PER_USER: '1', QA_CONCURRENT_REQUESTS_PER_ORG: '2' },
    });
  });
  afterAll(() => app.close());

  it('refuses a second request of a user and a third of an organization while they are answered', async () => {
    const org = await createOrg(app);
    await library(app, org.admin, 300);
    const second = await createUser(app, org.admin, 'contributor');
    const third = await createUser(app, org.admin, 'contributor');
    const batch = Array.from({ length: 100 }, (_, i) => `${QUESTIONS[i % QUESTIONS.length]} (item ${i})`);

    // In flight is what the database says: another API process would see the same rows.
    const running = askMany(app, org.admin, batch);
    await waitFor(async () => (await inflight(app, org.organizationId)) >= 1);
    const mine = await ask(app, org.admin, 'Do you have a SOC 2 report?');
    expect(mine.statusCode).toBe(429);
    expect(mine.data.error).toContain('You already have 1 request being answered');
    expect(mine.headers['retry-after']).toBe('1');

    const alongside = askMany(app, second, batch);
    await waitFor(async () => (await inflight(app, org.organizationId)) >= 2);
    const crowded = await ask(app, third, 'Do you have a SOC 2 report?');
    expect(crowded.statusCode).toBe(429);
    expect(crowded.data.error).toContain('Your organization already has 2 requests being answered');

    expect((await running).statusCode).toBe(200);
    expect((await alongside).statusCode).toBe(200);
    expect(await inflight(app, org.organizationId)).toBe(0);
    expect((await ask(app, third, 'Do you have a SOC 2 report?')).statusCode).toBe(200);
  });
});

describe('one organization’s batch and everyone else', () => {
  let app: TestApp;
  let base: string;
  beforeAll(async () => {
    app = await createTestApp({ worker: false });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('answers /api/health and another organization’s question while a 100-question batch is answered', async () => {
    const noisy = await createOrg(app);
    await library(app, noisy.admin, 300);
    const quiet = await createOrg(app);
    await createAnswer(app, quiet.admin, {
      question: 'Do you have a SOC 2 report?',
      answer: 'Yes. Our SOC 2 Type II report is renewed every year.',
    });

    // Real sockets: a request waiting on the network is only read when the event loop gets a turn.
    const post = (as: TestUser, url: string, body: unknown) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { cookie: as.cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    let batchDone = false;
    const batch = post(noisy.admin, '/api/qa/entries', {
      questions: Array.from({ length: 100 }, (_, i) => `${QUESTIONS[i % QUESTIONS.length]} (item ${i})`),
    }).then((r) => {
      batchDone = true;
      return r;
    });
    await waitFor(async () => (await inflight(app, noisy.organizationId)) >= 1);

    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    const answer = await post(quiet.admin, '/api/qa/ask', { question: 'Do you have a SOC 2 report?' });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { answerType: string }).answerType).toBe('canonical');
    expect(batchDone).toBe(false);

    const done = await batch;
    expect(done.status).toBe(200);
    expect(((await done.json()) as { entries: unknown[] }).entries).toHaveLength(100);
  });
});

async function inflight(app: TestApp, organizationId: string): Promise<number> {
  const rows = await app.database.db
    .select({ id: qaInflight.id })
    .from(qaInflight)
    .where(eq(qaInflight.organizationId, organizationId));
  return rows.length;
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + timeLeftInTest();
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setImmediate(r));
  }
}
