/**
 * bench:assessment — how fast a questionnaire is answered end to end: a 1,000-question workbook (XLSX, imported
 * through `POST /api/assessments/import`) against a 10,000-entry library, from the upload until the batch is
 * `completed`, without an LLM. Target: ≥ 50 questions/s on this 2-core machine.
 *
 *   npm run bench:assessment                       # embedded database, the worker inside the API process
 *   DATABASE_URL=postgres://… npm run bench:assessment   # PostgreSQL: one, then two `npm run worker` processes
 *   QUESTIONS=1000 ENTRIES=10000 WORKER_CONCURRENCY=2 npm run bench:assessment
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { createMailer } from '../server/mail/mailer';
import { createStorage } from '../server/storage/create';
import { startWorker } from '../server/worker/worker';
import { extractInThread } from '../server/ingest/thread';
import { libraryEntries, questionnaireXlsx } from './fixtures';

const PG_URL = process.env.DATABASE_URL;
const ENTRIES = Number(process.env.ENTRIES ?? 10_000);
const QUESTIONS = Number(process.env.QUESTIONS ?? 1000);
const CONCURRENCY = Number(process.env.WORKER_CONCURRENCY ?? (PG_URL ? 2 : 1));

type Api = { base: string; cookie: string };

async function register(base: string): Promise<Api> {
  const reg = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `bench${Date.now()}`,
      email: `bench${Date.now()}@example.com`,
      password: 'bench-pass',
      organizationName: 'Bench',
    }),
  });
  if (!reg.ok) throw new Error(`register failed: ${reg.status} ${await reg.text()}`);
  return { base, cookie: (reg.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
}

async function importLibrary(api: Api) {
  const t0 = performance.now();
  // One entry per (practice, system) pair the questionnaire asks about, among thousands of unrelated entries, as
  // in a real library: each question has one right answer somewhere in 10,000.
  const entries = libraryEntries(ENTRIES);
  const res = await fetch(`${api.base}/api/canonical-answers/import`, {
    method: 'POST',
    headers: { cookie: api.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ entries }),
  });
  if (!res.ok) throw new Error(`library import failed: ${res.status}`);
  console.log(`Library: ${ENTRIES} entries imported in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** Uploads the workbook and waits for the batch to complete; returns seconds and the answer-type mix. */
async function runBatch(api: Api, label: string) {
  const bytes = await questionnaireXlsx(QUESTIONS, label);
  const form = new FormData();
  form.append('name', `Bench ${label}`);
  form.append('file', new Blob([bytes]), 'questionnaire.xlsx');
  const t0 = performance.now();
  const res = await fetch(`${api.base}/api/assessments/import`, {
    method: 'POST',
    headers: { cookie: api.cookie },
    body: form,
  });
  if (res.status !== 201) throw new Error(`import failed: ${res.status} ${await res.text()}`);
  const { id, totalQuestions } = (await res.json()) as { id: string; totalQuestions: number };
  const imported = performance.now();
  for (;;) {
    const b = (await (
      await fetch(`${api.base}/api/assessments/${id}/batch`, { headers: { cookie: api.cookie } })
    ).json()) as {
      status: string;
    };
    if (b.status !== 'processing') break;
    // Polled like a browser tab would, a few times a second: the poll itself costs the database time.
    await new Promise((r) => setTimeout(r, 200));
  }
  const done = performance.now();
  const detail = (await (
    await fetch(`${api.base}/api/assessments/${id}`, { headers: { cookie: api.cookie } })
  ).json()) as {
    questions: Array<{ answerType: string | null; status: string }>;
  };
  const mix: Record<string, number> = {};
  for (const q of detail.questions) mix[q.answerType ?? q.status] = (mix[q.answerType ?? q.status] ?? 0) + 1;
  const seconds = (done - t0) / 1000;
  console.log(
    `  ${label.padEnd(34)} ${totalQuestions} questions in ${seconds.toFixed(2)} s ` +
      `(import ${((imported - t0) / 1000).toFixed(2)} s) → ${(totalQuestions / seconds).toFixed(1)} questions/s  ${JSON.stringify(mix)}`,
  );
}

async function embedded() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-bench-assessment-'));
  const database = await openDatabase({ kind: 'pglite', dataDir });
  const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'bench-secret-bench-secret-bench' });
  const log = pino({ level: 'silent' });
  const storage = createStorage(config);
  const worker = startWorker({ db: database.db, storage, log, extract: extractInThread, concurrency: CONCURRENCY });
  const app = await buildApp({
    db: database.db,
    config,
    mailer: createMailer({ from: 'bench@verity', db: database.db, log }),
    log,
    storage,
    wakeWorker: worker.wake,
  });
  try {
    const api = await register(await app.listen({ port: 0, host: '127.0.0.1' }));
    await importLibrary(api);
    console.log(`Embedded database, worker in the API process (concurrency ${CONCURRENCY}):`);
    await runBatch(api, 'first batch (cold caches)');
    await runBatch(api, 'second batch');
  } finally {
    await worker.stop();
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function startWorkerProcess(url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/worker/main.ts'], {
    env: { ...process.env, DATABASE_URL: url, WORKER_CONCURRENCY: String(CONCURRENCY), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('worker started')) resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}): ${out}`)));
  });
}

async function onPostgres(url: string) {
  const name = `verity_bench_assessment_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-bench-assessment-'));
  const database = await openDatabase({ kind: 'postgres', url: dbUrl.toString() });
  const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'bench-secret-bench-secret-bench' });
  const log = pino({ level: 'silent' });
  const app = await buildApp({
    db: database.db,
    config,
    mailer: createMailer({ from: 'bench@verity', db: database.db, log }),
    log,
    storage: createStorage(config),
  });
  const workers: ChildProcess[] = [];
  try {
    const api = await register(await app.listen({ port: 0, host: '127.0.0.1' }));
    await importLibrary(api);
    console.log(`PostgreSQL, API process + worker processes (each WORKER_CONCURRENCY=${CONCURRENCY}):`);
    workers.push(await startWorkerProcess(dbUrl.toString()));
    await runBatch(api, 'one worker process (warm-up)');
    await runBatch(api, 'one worker process');
    workers.push(await startWorkerProcess(dbUrl.toString()));
    await runBatch(api, 'two worker processes');
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await app.close();
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

(PG_URL ? onPostgres(PG_URL) : embedded()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
