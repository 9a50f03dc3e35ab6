import { spawn } from 'node:child_process';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helpers/app';
import { createOrg } from './helpers/factories';
import { importCsv, waitForBatch } from './helpers/assessments';
import { assessmentBatches, assessmentQuestions as aq } from '../server/db/schema';
import { claimQuestions } from '../server/worker/claim-questions';
import {
  answerClaimedQuestion,
  BrandCache,
  computeAnswer,
  GAVE_UP,
  MAX_QUESTION_ATTEMPTS,
  storeAnswers,
} from '../server/worker/answer-question';
import { startWorker, type Worker } from '../server/worker/worker';
import { extractInThread } from '../server/ingest/thread';
import { checkIntegrity, formatIntegrityReport } from '../server/ops/integrity';
import { waitUntil } from './helpers/wait';

// This file's app runs no worker of its own: each test starts, stops and "kills" the workers it needs. Its database
// is its own under test:pg too: these workers hold claims for a fraction of a second and take over whatever has
// been claimed longer, which on the shared database would be other files' questions still being answered.
const testDb = inject('testDb');
const log = pino({ level: 'silent' });

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ worker: false, privateDatabase: true });
});
afterAll(() => app.close());

const questions = (n: number, tag: string) =>
  `Question\n${Array.from({ length: n }, (_, i) => `"Do you review ${tag} control number ${i + 1} every year?"`).join('\n')}\n`;

function worker(opts: { staleMs?: number; concurrency?: number } = {}): Worker {
  return startWorker({
    db: app.database.db,
    storage: app.deps.storage,
    log,
    extract: extractInThread,
    concurrency: opts.concurrency ?? 2,
    pollMs: 20,
    sweepEveryMs: 0,
    questionStaleMs: opts.staleMs ?? 60_000,
  });
}

/** Claims like a worker; every test before has settled its batch, so all it finds is this batch's questions. */
async function claimOurs(batchId: string, limit: number, staleMs = 60_000) {
  const claimed = await claimQuestions(app.database.db, limit, staleMs);
  expect(claimed.every((c) => c.batchId === batchId)).toBe(true);
  return claimed;
}

async function answerCounts(batchId: string) {
  return app.database.db
    .select({ status: aq.status, answerCount: aq.answerCount })
    .from(aq)
    .where(eq(aq.batchId, batchId));
}

async function answeredSoFar(batchId: string): Promise<number> {
  const [row] = await app.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(aq)
    .where(and(eq(aq.batchId, batchId), eq(aq.status, 'completed')));
  return row?.n ?? 0;
}

describe('claiming questions (ARCHITECTURE §7)', () => {
  it('never gives the same question to two claims, even when they race', async () => {
    const org = await createOrg(app);
    const batch = await importCsv(app, org.admin, questions(12, 'race'));
    const claims = await Promise.all([1, 2, 3].map(() => claimOurs(batch.id, 12)));
    const mine = claims.flat();
    expect(new Set(mine.map((c) => c.id)).size).toBe(mine.length);
    expect(mine).toHaveLength(12);
    // Hand them back so the next tests' workers are not held up by these claims.
    await app.database.db.update(aq).set({ status: 'pending', claimedAt: null }).where(eq(aq.batchId, batch.id));
    const w = worker();
    try {
      await waitForBatch(app, org.admin, batch.id);
    } finally {
      await w.stop();
    }
  });
});

describe('a worker that dies mid-batch', () => {
  it('leaves claims that another worker takes over once stale; every question is answered exactly once', async () => {
    const org = await createOrg(app);
    const batch = await importCsv(app, org.admin, questions(40, 'stale'));
    // The dead worker: it claimed ten questions and never answered them.
    const dead = await claimOurs(batch.id, 10);
    expect(dead.length).toBeGreaterThan(0);
    const w = worker({ staleMs: 300 });
    try {
      const d = await waitForBatch(app, org.admin, batch.id);
      expect(d.batch.status).toBe('completed');
      expect(d.progress).toMatchObject({ completed: 40, pending: 0, failed: 0 });
    } finally {
      await w.stop();
    }
    const rows = await answerCounts(batch.id);
    expect(rows.every((r) => r.status === 'completed' && r.answerCount === 1)).toBe(true);
  });

  it('fails a question whose last allowed try died with its worker, and settles the batch', async () => {
    const org = await createOrg(app);
    const batch = await importCsv(app, org.admin, questions(1, 'doomed'));
    const [claim] = await claimOurs(batch.id, 50);
    expect(claim).toBeDefined();
    await app.database.db.update(aq).set({ attempts: MAX_QUESTION_ATTEMPTS }).where(eq(aq.batchId, batch.id));
    const w = worker({ staleMs: 200 });
    try {
      const d = await waitForBatch(app, org.admin, batch.id);
      expect(d.batch.status).toBe('failed');
      expect(d.questions[0]).toMatchObject({ status: 'failed', errorMessage: GAVE_UP });
    } finally {
      await w.stop();
    }
  });

  it('after a passing fault tries again only after a pause, not at once', async () => {
    const org = await createOrg(app);
    const batch = await importCsv(app, org.admin, questions(1, 'flaky'));
    const [claim] = await claimOurs(batch.id, 50);
    if (!claim) throw new Error('no claim');
    // The database hiccups while the question is being answered.
    class FailingBrands extends BrandCache {
      override get(): Promise<undefined> {
        return Promise.reject(new Error('connection reset'));
      }
    }
    const staleMs = 60_000;
    const before = Date.now();
    const outcome = await answerClaimedQuestion(
      { db: app.database.db, log, brands: new FailingBrands(), staleMs },
      claim,
    );
    expect(outcome).toBe('retry');
    const [row] = await app.database.db.select().from(aq).where(eq(aq.id, claim.id));
    expect(row).toMatchObject({ status: 'processing', attempts: 1, answerCount: 0 });
    // Stale, and so claimable, about two seconds from now: not at once, not after the full claim timeout.
    const staleAt = (row?.claimedAt?.getTime() ?? 0) + staleMs;
    expect(staleAt).toBeGreaterThan(before + 1500);
    expect(staleAt).toBeLessThan(Date.now() + 2500);
    expect((await claimOurs(batch.id, 50, staleMs)).some((c) => c.id === claim.id)).toBe(false);
    const w = worker({ staleMs });
    try {
      const d = await waitForBatch(app, org.admin, batch.id);
      expect(d.questions[0]).toMatchObject({ status: 'completed' });
    } finally {
      await w.stop();
    }
  });

  it('stopped half-way and restarted, finishes the batch without answering anything twice', async () => {
    const TOTAL = 200;
    const org = await createOrg(app);
    const batch = await importCsv(app, org.admin, questions(TOTAL, 'restart'));
    const first = worker();
    await waitUntil(
      async () => {
        if ((await answeredSoFar(batch.id)) < 20) throw new Error('not started yet');
      },
      { interval: 10 },
    );
    await first.stop();
    const midway = await answeredSoFar(batch.id);
    expect(midway, 'the first worker should have been stopped before the end').toBeLessThan(TOTAL);
    const [state] = await app.database.db
      .select({ status: assessmentBatches.status })
      .from(assessmentBatches)
      .where(eq(assessmentBatches.id, batch.id));
    expect(state?.status).toBe('processing');
    const second = worker();
    try {
      await waitForBatch(app, org.admin, batch.id);
    } finally {
      await second.stop();
    }
    const rows = await answerCounts(batch.id);
    expect(rows).toHaveLength(TOTAL);
    expect(rows.every((r) => r.status === 'completed' && r.answerCount === 1)).toBe(true);
    // 200 questions on one PGlite take 10-40 s on a 2-core machine, depending on what else runs on it: the limit is
    // generous, and every wait inside runs until it (test/helpers/wait.ts).
  }, 180_000);

  it('two workers at once share a batch and settle it exactly once', async () => {
    const org = await createOrg(app);
    const batch = await importCsv(app, org.admin, questions(120, 'pair'));
    const [a, b] = [worker(), worker()];
    try {
      const d = await waitForBatch(app, org.admin, batch.id);
      expect(d.batch.status).toBe('completed');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    const rows = await answerCounts(batch.id);
    expect(rows.every((r) => r.answerCount === 1)).toBe(true);
  });
});

describe("a claim's answers stored together", () => {
  it('writes each answer whose claim is still ours, drops the one taken over, and settles the batch once all are in', async () => {
    const org = await createOrg(app);
    const batch = await importCsv(app, org.admin, questions(3, 'grouped'));
    const claimed = await claimOurs(batch.id, 50);
    expect(claimed).toHaveLength(3);
    const deps = { db: app.database.db, log, brands: new BrandCache() };
    const answers = await Promise.all(claimed.map((q) => computeAnswer(deps, q)));
    // Meanwhile the second question's claim went stale and another worker took it over.
    const [, takenOver] = claimed;
    if (!takenOver) throw new Error('no second claim');
    await app.database.db
      .update(aq)
      .set({ claimedAt: new Date(Date.now() + 1000) })
      .where(eq(aq.id, takenOver.id));

    expect(await storeAnswers(deps, answers)).toEqual(['completed', 'lost', 'completed']);
    const rows = await app.database.db.select().from(aq).where(eq(aq.batchId, batch.id));
    expect(
      rows
        .filter((r) => r.status === 'completed')
        .map((r) => r.id)
        .sort(),
    ).toEqual([claimed[0]?.id, claimed[2]?.id].sort());
    const [open] = await app.database.db.select().from(assessmentBatches).where(eq(assessmentBatches.id, batch.id));
    expect(open?.status).toBe('processing');

    // The other worker's answer to it completes the batch.
    const [again] = await app.database.db.select().from(aq).where(eq(aq.id, takenOver.id));
    if (!again) throw new Error('question gone');
    const mine = { ...takenOver, claimedAt: again.claimedAt };
    expect(await storeAnswers(deps, [await computeAnswer(deps, mine)])).toEqual(['completed']);
    const [done] = await app.database.db.select().from(assessmentBatches).where(eq(assessmentBatches.id, batch.id));
    expect(done?.status).toBe('completed');
    expect((await answerCounts(batch.id)).every((r) => r.answerCount === 1)).toBe(true);
  });
});

describe('one answer the database refuses', () => {
  it('does not take the rest of its claim down with it', async () => {
    const org = await createOrg(app);
    const batch = await importCsv(app, org.admin, questions(3, 'refused'));
    const claimed = await claimOurs(batch.id, 50);
    const deps = { db: app.database.db, log, brands: new BrandCache() };
    const answers = await Promise.all(claimed.map((q) => computeAnswer(deps, q)));
    const [, refused] = answers;
    if (!refused?.result) throw new Error('no answer to spoil');
    // PostgreSQL refuses a NUL character in text.
    refused.result = { ...refused.result, answer: 'Yes.\u0000' };

    expect(await storeAnswers(deps, answers)).toEqual(['completed', 'error', 'completed']);
    const rows = await app.database.db.select().from(aq).where(eq(aq.batchId, batch.id));
    expect(rows.find((r) => r.id === refused.q.id)?.status).toBe('processing');
    expect(rows.filter((r) => r.status === 'completed')).toHaveLength(2);
  });
});

describe.runIf(testDb.kind === 'postgres')('worker processes on PostgreSQL', () => {
  it('two `npm run worker` processes share 1,000 questions; one killed with SIGKILL, each is answered once', async () => {
    const databaseUrl = app.database.url;
    if (!databaseUrl) throw new Error('the app has no PostgreSQL database');
    const TOTAL = 1000;
    const org = await createOrg(app);
    const batch = await importCsv(app, org.admin, questions(TOTAL, 'kill'));
    const start = () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/worker/main.ts'], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          // The app's object store, as worker machines share one bucket.
          STORAGE_DIR: inject('objectsDir'),
          SESSION_SECRET: 'worker-secret-worker-secret-worker',
          WORKER_CONCURRENCY: '2',
          WORKER_QUESTION_CLAIM_SECONDS: '2',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      return { child, output: () => output };
    };
    const victim = start();
    const survivor = start();
    try {
      await waitUntil(
        async () => {
          if ((await answeredSoFar(batch.id)) < 100) throw new Error('workers not under way yet');
        },
        { interval: 20 },
      );
      victim.child.kill('SIGKILL');
      const d = await waitForBatch(app, org.admin, batch.id);
      expect(d.batch.status, survivor.output()).toBe('completed');
      const rows = await answerCounts(batch.id);
      expect(rows).toHaveLength(TOTAL);
      expect(rows.every((r) => r.status === 'completed' && r.answerCount === 1)).toBe(true);
      // No question left in processing; the batch's counts and status agree with its questions.
      const problems = await checkIntegrity(app.database.db, app.deps.storage, {
        organizationIds: [org.organizationId],
        quiescent: true,
      });
      expect(problems, formatIntegrityReport(problems)).toEqual([]);
    } finally {
      victim.child.kill('SIGKILL');
      const exited = new Promise((r) => survivor.child.once('exit', r));
      survivor.child.kill('SIGTERM');
      await exited;
    }
  }, 300_000);
});
