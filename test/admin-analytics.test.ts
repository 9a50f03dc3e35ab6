import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qaEntries } from '../server/db/schema';
import { createTestApp, type TestApp } from './helpers/app';
import { call, type Session } from './helpers/api';
import { createAnswer, createOrg, createTenant, createTenantPair, type Tenant } from './helpers/factories';
import { expectRolePolicy } from './helpers/roles-matrix';

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp({ worker: false });
  t = await createTenant(app);
});
afterAll(() => app.close());

type Recorded = { answerType: 'canonical' | 'generated' | 'draft' | 'unknown'; confidence: number };

/**
 * Stores a question with exactly this answer type and confidence, as the Ask screen would have recorded it. Written
 * to the table directly: the API only records a type that sources of the workspace back (see test/qa.test.ts), and
 * these figures are about counting, not answering.
 */
async function record(as: Session, question: string, given: Recorded) {
  const me = await call(app, 'GET', '/api/auth/me', { as });
  expect(me.statusCode, me.body).toBe(200);
  const user = me.data.user as { id: string; organizationId: string };
  const workspaceId =
    as.workspaceId ?? ((await call(app, 'GET', '/api/workspaces', { as })).data as Array<{ id: string }>)[0]?.id;
  if (!workspaceId) throw new Error('no workspace');
  const [row] = await app.database.db
    .insert(qaEntries)
    .values({
      organizationId: user.organizationId,
      workspaceId,
      userId: user.id,
      question,
      answer: `Answer to: ${question}`,
      answerType: given.answerType,
      confidence: given.confidence,
      sources: [],
    })
    .returning({ id: qaEntries.id });
  if (!row) throw new Error('not recorded');
  return row;
}

async function analytics(as: Session, query = '') {
  const res = await call(app, 'GET', `/api/admin/analytics${query}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.data;
}

const today = () => new Date().toISOString().slice(0, 10);

describe('GET /api/admin/analytics', () => {
  it('is all zeros for an organization that asked nothing', async () => {
    const org = await createOrg(app);
    const a = await analytics(org.admin);
    expect(a).toMatchObject({
      days: 30,
      to: today(),
      questionsAsked: 0,
      automatedAnswers: 0,
      automationRate: null,
      averageConfidence: null,
      activeUsers: 0,
      assessmentsCompleted: 0,
      answerTypes: { canonical: 0, draft: 0, generated: 0, unknown: 0 },
      topUnanswered: [],
    });
    expect(a.questionsPerDay).toHaveLength(30);
    expect(a.questionsPerDay[0].date).toBe(a.from);
    expect(a.questionsPerDay[29]).toEqual({ date: today(), questions: 0, automated: 0 });
  });

  it('counts the questions asked, their answer types and the automation rate', async () => {
    const org = await createOrg(app);
    const as = org.admin;
    await record(as, 'Do you encrypt backups?', { answerType: 'canonical', confidence: 95 });
    await record(as, 'Do you rotate keys?', { answerType: 'canonical', confidence: 80 });
    // Below the automation threshold: answered, but someone has to look at it.
    await record(as, 'Do you log admin access?', { answerType: 'canonical', confidence: 79 });
    await record(as, 'How long are logs kept?', { answerType: 'generated', confidence: 85 });
    await record(as, 'Who reviews firewall rules?', { answerType: 'generated', confidence: 60 });
    await record(as, 'Is there a DPO?', { answerType: 'draft', confidence: 99 });
    await record(as, 'What is the RTO?', { answerType: 'unknown', confidence: 0 });
    await record(as, 'What is the RPO?', { answerType: 'unknown', confidence: 0 });

    const a = await analytics(as);
    expect(a).toMatchObject({
      questionsAsked: 8,
      automatedAnswers: 3,
      automationRate: 37.5,
      averageConfidence: 62.3,
      activeUsers: 1,
      answerTypes: { canonical: 3, generated: 2, draft: 1, unknown: 2 },
    });
    expect(a.questionsPerDay.at(-1)).toEqual({ date: today(), questions: 8, automated: 3 });
    expect(a.questionsPerDay.slice(0, -1).every((d: { questions: number }) => d.questions === 0)).toBe(true);
  });

  it('counts what the answer engine really answered, in every workspace of the organization', async () => {
    const org = await createOrg(app);
    const as = org.admin;
    await createAnswer(app, as, {
      question: 'Do you encrypt customer data at rest?',
      answer: 'Yes. Customer data at rest is encrypted with AES-256 using keys managed in AWS KMS.',
    });
    const asked = await call(app, 'POST', '/api/qa/ask', {
      as,
      body: { question: 'Do you encrypt customer data at rest?' },
    });
    expect(asked.data).toMatchObject({ answerType: 'canonical' });
    expect(asked.data.confidence).toBeGreaterThanOrEqual(80);
    const ws = await call(app, 'POST', '/api/workspaces', { as, body: { name: 'Second' } });
    expect(ws.statusCode, ws.body).toBe(201);
    const batch = await call(app, 'POST', '/api/qa/entries', {
      as,
      body: { questions: ['Do you run a bug bounty program?', 'Is there a bug bounty with public rewards?'] },
      headers: { 'x-workspace-id': ws.data.id },
    });
    expect(batch.data.entries.map((e: { answerType: string }) => e.answerType)).toEqual(['unknown', 'unknown']);

    const a = await analytics(as);
    expect(a).toMatchObject({
      questionsAsked: 3,
      automatedAnswers: 1,
      automationRate: 33.3,
      answerTypes: { canonical: 1, generated: 0, draft: 0, unknown: 2 },
    });
    expect(a.topUnanswered[0]).toMatchObject({ kind: 'topic', key: 'bug_bounty', label: 'Bug bounty', count: 2 });
  });

  it('groups unanswered questions by topic, else by the question asked again', async () => {
    const org = await createOrg(app);
    const as = org.admin;
    const none = { answerType: 'unknown', confidence: 0 } as const;
    await record(as, 'Do you support SAML single sign-on?', none);
    await record(as, 'Can users sign in with SSO through Okta?', none);
    await record(as, 'Is SSO enforced for all employees?', none);
    await record(as, 'Is customer data encrypted at rest?', none);
    await record(as, 'What is the colour of your logo?', none);
    await record(as, 'what is the colour of your   logo', none);
    await record(as, 'Do you publish a status page?', { answerType: 'canonical', confidence: 90 });

    const { topUnanswered } = await analytics(as);
    expect(topUnanswered[0]).toMatchObject({ kind: 'topic', key: 'sso', label: 'Single sign-on', count: 3 });
    expect(topUnanswered[0].examples).toHaveLength(3);
    expect(topUnanswered).toContainEqual(
      expect.objectContaining({ kind: 'topic', key: 'encryption_at_rest', count: 1 }),
    );
    expect(topUnanswered).toContainEqual(
      expect.objectContaining({
        kind: 'question',
        key: 'what is the colour of your logo',
        count: 2,
        label: 'what is the colour of your   logo',
      }),
    );
    // Answered questions are not gaps.
    expect(JSON.stringify(topUnanswered)).not.toContain('status page');
  });

  it('puts each question on its day and leaves out what is older than the period', async () => {
    const org = await createOrg(app);
    const as = org.admin;
    const old = await record(as, 'Asked 40 days ago?', { answerType: 'canonical', confidence: 90 });
    const recent = await record(as, 'Asked 3 days ago?', { answerType: 'generated', confidence: 90 });
    await record(as, 'Asked today?', { answerType: 'unknown', confidence: 0 });
    const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 3600_000);
    const db = app.database.db;
    const inOrg = (id: string) => and(eq(qaEntries.id, id), eq(qaEntries.organizationId, org.organizationId));
    await db
      .update(qaEntries)
      .set({ createdAt: daysAgo(40) })
      .where(inOrg(old.id));
    await db
      .update(qaEntries)
      .set({ createdAt: daysAgo(3) })
      .where(inOrg(recent.id));

    const month = await analytics(as);
    expect(month.questionsAsked).toBe(2);
    const threeDaysAgo = daysAgo(3).toISOString().slice(0, 10);
    expect(month.questionsPerDay.find((d: { date: string }) => d.date === threeDaysAgo)).toEqual({
      date: threeDaysAgo,
      questions: 1,
      automated: 1,
    });
    const week = await analytics(as, '?days=7');
    expect(week.questionsPerDay).toHaveLength(7);
    expect(week.questionsAsked).toBe(2);
    const quarter = await analytics(as, '?days=90');
    expect(quarter).toMatchObject({ questionsAsked: 3, automatedAnswers: 2 });
    const oneDay = await analytics(as, '?days=1');
    expect(oneDay).toMatchObject({ from: today(), to: today(), questionsAsked: 1, automationRate: 0 });
  });

  it('rejects a bad period', async () => {
    for (const q of ['days=0', 'days=366', 'days=abc', 'days=1.5']) {
      const res = await call(app, 'GET', `/api/admin/analytics?${q}`, { as: t.admin });
      expect(res.statusCode, q).toBe(400);
      expect(res.data).toMatchObject({ code: 'validation_error', error: expect.stringContaining('days') });
    }
  });

  it('is for admins only and counts only the caller’s organization', async () => {
    await expectRolePolicy(app, t, 'analytics:read', () => ({ method: 'GET', url: '/api/admin/analytics' }));
    expect((await call(app, 'GET', '/api/admin/analytics')).statusCode).toBe(401);

    const { a, b } = await createTenantPair(app);
    await record(a.users.contributor, 'Do you have an incident response plan?', {
      answerType: 'unknown',
      confidence: 0,
    });
    await record(b.users.contributor, 'Do you encrypt laptops?', { answerType: 'canonical', confidence: 99 });
    await record(b.users.contributor, 'Do you have cyber insurance?', { answerType: 'unknown', confidence: 0 });
    const seen = await analytics(a.users.admin);
    expect(seen).toMatchObject({ questionsAsked: 1, activeUsers: 1, answerTypes: { canonical: 0, unknown: 1 } });
    expect(JSON.stringify(seen)).not.toContain('insurance');
  });
});
