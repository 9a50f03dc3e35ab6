/**
 * bench:accuracy — how fast the accuracy page answers over 100,000 reviewed machine answers (issue 36: "< 300 ms").
 * Builds the real app on a fresh embedded database (or DATABASE_URL's PostgreSQL), writes the outcomes directly (one
 * workspace, spread over the last two years, confidences and outcomes like a real review's mix; the review paths
 * that write them one by one are tested, not timed), then times GET /api/admin/accuracy through the full HTTP stack
 * for the default 90 days and for the longest period, and the CSV export of the default period.
 *
 *   npm run bench:accuracy
 *   OUTCOMES=200000 RUNS=30 npm run bench:accuracy
 *
 * Limits: the product's defaults but for sign-ups (bench-database.ts), printed on the first line; any refusal stops
 * the bench with the request's status, URL and body.
 */
import fs from 'node:fs';
import os from 'node:os';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { ACCURACY_PERIOD_MAX_DAYS } from '../common/schemas/accuracy';
import { buildApp } from '../server/app';
import { assessmentBatches, assessmentQuestions, reviewOutcomes } from '../server/db/schema';
import { createMailer } from '../server/mail/mailer';
import { createStorage } from '../server/storage/create';
import { openBenchDatabase } from './bench-database';
import { injectOk, registerOrganization } from './inject';
import { limitsLine } from './limits';
import { percentile } from './percentile';

const OUTCOMES = Number(process.env.OUTCOMES ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 20);
const PER_BATCH = 1000;
const CHUNK = 2000;
const DAY_MS = 24 * 3600_000;
const TOPICS = ['mfa', 'encryption_at_rest', 'penetration_testing', 'backups', 'other', null];

/** A deterministic pseudo-random sequence (mulberry32), so every run writes the same rows. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An outcome as a reviewer would leave it: the more confident the engine, the likelier kept unchanged. */
function outcomeAt(confidence: number, r: number): string {
  const kept = 0.3 + 0.7 * (confidence / 100) ** 2;
  if (r < kept) return 'unchanged';
  if (r < kept + (1 - kept) * 0.5) return 'edited';
  if (r < kept + (1 - kept) * 0.8) return 'replaced';
  return r < kept + (1 - kept) * 0.9 ? 'not_applicable' : 'regenerated';
}

function stats(ms: number[]) {
  return { median: percentile(ms, 0.5), p95: percentile(ms, 0.95) };
}

async function main() {
  const { dataDir, database, config } = await openBenchDatabase('verity-bench-');
  console.log(`${limitsLine(config)}\n`);
  const log = pino({ level: 'silent' });
  const mailer = createMailer({ from: 'bench@verity', db: database.db, log });
  const app = await buildApp({ db: database.db, config, mailer, log, storage: createStorage(config) });
  try {
    const cookie = await registerOrganization(app, 'bench', 'Bench');
    const get = (u: string) => injectOk(app, { method: 'GET', url: u, headers: { cookie } });
    const me = (await get('/api/auth/me')).json() as { user: { id: string; organizationId: string } };
    const [workspace] = (await get('/api/workspaces')).json() as Array<{ id: string }>;
    if (!workspace) throw new Error('the organization has no workspace');
    const organizationId = me.user.organizationId;
    const workspaceId = workspace.id;
    const db = database.db;

    const rand = random(36);
    const now = Date.now();
    const t0 = performance.now();
    for (let b = 0; b < OUTCOMES; b += PER_BATCH) {
      const size = Math.min(PER_BATCH, OUTCOMES - b);
      const [batch] = await db
        .insert(assessmentBatches)
        .values({
          organizationId,
          workspaceId,
          name: `Bench review ${b / PER_BATCH + 1}`,
          status: 'completed',
          totalQuestions: size,
          metadata: { sourceFile: null, customerName: null, assessmentType: null },
          sourceFormat: 'csv',
          mapping: [],
        })
        .returning({ id: assessmentBatches.id });
      if (!batch) throw new Error('no batch inserted');
      for (let c = 0; c < size; c += CHUNK) {
        const n = Math.min(CHUNK, size - c);
        const questions = await db
          .insert(assessmentQuestions)
          .values(
            Array.from({ length: n }, (_, i) => ({
              batchId: batch.id,
              organizationId,
              workspaceId,
              orderIndex: c + i,
              question: `Bench question ${b + c + i}?`,
              status: 'completed',
              reviewState: 'approved',
            })),
          )
          .returning({ id: assessmentQuestions.id });
        await db.insert(reviewOutcomes).values(
          questions.map((q) => {
            const confidence = Math.round(rand() * 100);
            const outcome = outcomeAt(confidence, rand());
            return {
              organizationId,
              workspaceId,
              batchId: batch.id,
              questionId: q.id,
              outcome,
              editDistance: outcome === 'unchanged' ? 0 : outcome === 'edited' ? rand() * 0.5 : null,
              confidence,
              answerType: rand() < 0.7 ? 'canonical' : rand() < 0.8 ? 'generated' : 'unknown',
              topic: TOPICS[Math.floor(rand() * TOPICS.length)] ?? null,
              reviewedBy: me.user.id,
              reviewedAt: new Date(now - rand() * (ACCURACY_PERIOD_MAX_DAYS - 1) * DAY_MS),
            };
          }),
        );
      }
    }
    // As autovacuum would after a load this size: the planner's statistics and the index-only scan's visibility map.
    await db.execute(sql`vacuum analyze review_outcomes`);
    console.log(
      `Wrote ${OUTCOMES.toLocaleString('en-US')} outcomes (with their questions, ${Math.ceil(OUTCOMES / PER_BATCH)} assessments) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
    );

    const today = new Date(now).toISOString().slice(0, 10);
    const longest = new Date(now - (ACCURACY_PERIOD_MAX_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
    const calls: Array<[string, string]> = [
      ['accuracy, last 90 days (default)', '/api/admin/accuracy'],
      [`accuracy, ${ACCURACY_PERIOD_MAX_DAYS} days (every row)`, `/api/admin/accuracy?from=${longest}&to=${today}`],
      [
        `accuracy, ${ACCURACY_PERIOD_MAX_DAYS} days, one band (90–100)`,
        `/api/admin/accuracy?from=${longest}&to=${today}&band=90-100`,
      ],
      ['CSV export, last 90 days', '/api/admin/accuracy/export'],
    ];
    const all = (await get(calls[1]?.[1] ?? '')).json() as { totals: { reviewed: number } };
    console.log(
      `Median and p95 of ${RUNS} calls each, through the full HTTP stack (app.inject); ${all.totals.reviewed.toLocaleString('en-US')} outcomes in the longest period (target < 300 ms):`,
    );
    for (const [name, u] of calls) {
      const ms: number[] = [];
      let bytes = 0;
      for (let i = 0; i < RUNS; i += 1) {
        const s = performance.now();
        bytes = (await get(u)).rawPayload.length;
        ms.push(performance.now() - s);
      }
      const { median, p95 } = stats(ms);
      console.log(
        `  ${name.padEnd(36)} median ${median.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms   ${Math.round(bytes / 1024)} KB`,
      );
    }
    console.log(
      `\nDatabase: ${database.kind}${database.kind === 'pglite' ? ' (embedded)' : ''}; node ${process.version}; ${os.cpus().length} cores.`,
    );
  } finally {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
