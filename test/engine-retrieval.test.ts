import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createAnswer, createOrg, createTenant, type Tenant } from './helpers/factories';
import { settledDocument, uploadDocument } from './helpers/documents';
import { trigramSimilarity } from '../server/engine/text/trigram';
import { stagedQueries } from '../server/engine/retrieval/query';
import { libraryIndex } from '../server/engine/retrieval/library-index';
import { canonicalAnswers } from '../server/db/schema';

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp();
  t = await createTenant(app);
});
afterAll(() => app.close());

const ask = (question: string) =>
  call(app, 'POST', '/api/qa/ask', { as: t.users.contributor, body: { question } }).then((r) => r.data);

describe('the in-memory library index', () => {
  it('finds an entry the moment it is saved, and forgets it the moment it is deleted', async () => {
    const question = 'Do you run a bug bounty programme for the mobile banking app?';
    expect((await ask(question)).answerType).toBe('unknown');

    const created = await createAnswer(app, t.admin, {
      question: 'Do you run a bug bounty program for the mobile banking app?',
      answer: 'Yes. Our public bug bounty on HackerOne covers the mobile banking app.',
      tags: ['bug bounty'],
    });
    const found = await ask(question);
    expect(found.answerType).toBe('canonical');
    expect(found.answer).toContain('HackerOne');

    const edited = await call(app, 'PUT', `/api/canonical-answers/${created.id}`, {
      as: t.admin,
      body: { answer: 'Yes. Our bug bounty on Intigriti covers the mobile banking app.' },
    });
    expect(edited.statusCode).toBe(200);
    expect((await ask(question)).answer).toContain('Intigriti');

    const removed = await call(app, 'DELETE', `/api/canonical-answers/${created.id}`, { as: t.admin });
    expect(removed.statusCode).toBeLessThan(300);
    expect((await ask(question)).answerType).toBe('unknown');
  });
});

describe('building a large library index', () => {
  it('lets other work run while it folds the entries, and indexes every one of them', async () => {
    const org = await createOrg(app);
    const scope = { db: app.database.db, organizationId: org.organizationId, workspaceId: org.workspaceId };
    const rows = Array.from({ length: 2_500 }, (_, i) => ({
      organizationId: org.organizationId,
      workspaceId: org.workspaceId,
      question: `Do you review the firewall rules of site ${i} every quarter?`,
      questionNorm: `do you review the firewall rules of site ${i} every quarter`,
      answer: `Yes. The rules of site ${i} are reviewed by the network team each quarter.`,
      status: 'approved',
    }));
    for (let i = 0; i < rows.length; i += 500)
      await app.database.db.insert(canonicalAnswers).values(rows.slice(i, i + 500));

    let turns = 0;
    let building = true;
    const tick = () => {
      turns += 1;
      if (building) setImmediate(tick);
    };
    setImmediate(tick);
    const index = await libraryIndex(scope);
    building = false;
    expect(index.entries).toHaveLength(2_500);
    expect(turns).toBeGreaterThanOrEqual(2);
  });
});

describe('document passages', () => {
  it('are found as soon as a first document is ready in a workspace that had none, and gone once it is deleted', async () => {
    const org = await createOrg(app);
    const question = 'How long are security logs retained?';
    const before = await call(app, 'POST', '/api/qa/ask', { as: org.admin, body: { question } });
    expect(before.data.answerType).toBe('unknown');

    const doc = await uploadDocument(
      app,
      org.admin,
      Buffer.from('# Logging\n\nSecurity logs are retained for 400 days in write-once storage.\n'),
      'logging-policy.md',
    );
    await settledDocument(app, org.admin, doc.data.id);
    const after = await call(app, 'POST', '/api/qa/ask', { as: org.admin, body: { question } });
    expect(after.data.answerType).toBe('generated');
    expect(after.data.answer).toContain('400 days');

    expect((await call(app, 'DELETE', `/api/documents/${doc.data.id}`, { as: org.admin })).statusCode).toBeLessThan(
      300,
    );
    const gone = await call(app, 'POST', '/api/qa/ask', { as: org.admin, body: { question } });
    expect(gone.data.answerType).toBe('unknown');
  });
});

describe('trigram similarity', () => {
  it('equals PostgreSQL pg_trgm similarity()', async () => {
    const pairs: Array<[string, string]> = [
      ['Do you encrypt customer data at rest?', 'Is customer data encrypted at rest?'],
      ['MFA for admins', 'Multi-factor authentication for administrators'],
      ['SOC 2 Type II', 'ISO/IEC 27001:2022'],
      ['Crème brûlée policy', 'creme brulee policy'],
      ['', 'anything'],
    ];
    for (const [a, b] of pairs) {
      const res = (await app.database.db.execute(sql`select similarity(${a}, ${b})::float8 as s`)) as {
        rows: Array<{ s: number }>;
      };
      expect(trigramSimilarity(a, b)).toBeCloseTo(Number(res.rows[0]?.s ?? NaN), 5);
    }
  });
});

describe('staged full-text queries', () => {
  it('keeps words most rows contain out of the loose stages, but not out of the strict one', () => {
    const common = new Set(['secur', 'polici']);
    const stages = stagedQueries('Is the security policy reviewed by the CISO annually?', (l) =>
      common.has(l) ? 0.5 : 0,
    );
    expect(stages[0]).toContain('policy');
    expect(stages.length).toBeGreaterThan(1);
    for (const loose of stages.slice(1)) expect(loose).not.toMatch(/policy|security/);
  });

  it('still has a loose stage when every word is common', () => {
    const stages = stagedQueries('security policy data', () => 0.5);
    expect(stages.length).toBeGreaterThan(1);
  });
});
