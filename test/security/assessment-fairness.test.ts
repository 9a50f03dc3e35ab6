import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/app';
import { call } from '../helpers/api';
import { createOrg } from '../helpers/factories';
import { importCsv } from '../helpers/assessments';
import { assessmentQuestions as aq } from '../../server/db/schema';
import { claimQuestions } from '../../server/worker/claim-questions';

/**
 * Issue 16, finding 4: one tenant's big assessment must not starve everyone else's. The workers' claims take turns
 * between organizations (and between an organization's batches), and an organization's waiting questions are
 * capped. This app runs no worker: the test claims as a worker with one free lane would.
 */
const csv = (n: number, tag: string) =>
  `Question\n${Array.from({ length: n }, (_, i) => `"Do you review ${tag} control ${i + 1} every year?"`).join('\n')}\n`;

let app: TestApp;
beforeAll(async () => {
  // Its own database under test:pg too: a claim on the shared one would take other files' questions, and count an
  // attempt against each.
  app = await createTestApp({
    worker: false,
    privateDatabase: true,
    env: { ASSESSMENT_OPEN_QUESTIONS_PER_ORG: '60' },
  });
});
afterAll(() => app.close());

/** One claim of one question, as a worker with one free lane makes it: the batch it came from. */
async function claimOne(): Promise<string | null> {
  const [claimed] = await claimQuestions(app.database.db, 1, 60_000);
  return claimed?.batchId ?? null;
}

describe('claiming assessment questions', () => {
  it('takes turns between organizations, so a 1-question assessment does not wait behind a 50-question one', async () => {
    const big = await createOrg(app);
    const small = await createOrg(app);
    const bigBatch = await importCsv(app, big.admin, csv(50, 'big'), 'Big review');
    const bigSecond = await importCsv(app, big.admin, csv(5, 'second'), 'Second review');
    const smallBatch = await importCsv(app, small.admin, csv(1, 'small'), 'Small review');
    const ours = [bigBatch.id, bigSecond.id, smallBatch.id];

    const order: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const batch = await claimOne();
      if (batch) order.push(batch);
    }
    expect(order).toHaveLength(12);
    expect(order.slice(0, 2)).toContain(smallBatch.id);
    // The big organization's own second batch is not stuck behind its first either.
    expect(order.slice(0, 4)).toContain(bigSecond.id);
    await app.database.db.update(aq).set({ status: 'pending', claimedAt: null }).where(inArray(aq.batchId, ours));
    for (const id of ours) await call(app, 'DELETE', `/api/assessments/${id}`, { as: big.admin });
    await call(app, 'DELETE', `/api/assessments/${smallBatch.id}`, { as: small.admin });
  });
});

describe('questions waiting per organization', () => {
  it('refuses an import that would take an organization past the cap, and no other organization', async () => {
    const org = await createOrg(app);
    const other = await createOrg(app);
    const first = await importCsv(app, org.admin, csv(40, 'first'), 'First');
    const before = await call(app, 'GET', '/api/assessments', { as: org.admin });

    const res = await call(app, 'POST', '/api/assessments/import-csv', {
      as: org.admin,
      body: { name: 'Too many', csvContent: csv(30, 'more') },
    });
    expect(res.statusCode).toBe(429);
    expect(res.data.code).toBe('rate_limited');
    expect(res.data.error).toContain('already has 40 assessment questions waiting');
    expect(res.data.error).toContain('at most 60');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const after = await call(app, 'GET', '/api/assessments', { as: org.admin });
    expect(after.data).toHaveLength(before.data.length);

    // What fits still goes in, and another organization has its own allowance.
    expect((await importCsv(app, org.admin, csv(20, 'fits'), 'Fits')).id).toBeTruthy();
    expect((await importCsv(app, other.admin, csv(60, 'theirs'), 'Theirs')).id).toBeTruthy();

    // Answered questions no longer count.
    await app.database.db.update(aq).set({ status: 'completed', answer: 'Yes.' }).where(eq(aq.batchId, first.id));
    expect((await importCsv(app, org.admin, csv(30, 'later'), 'Later')).id).toBeTruthy();
  });
});
