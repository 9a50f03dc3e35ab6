/**
 * bench:assessment — how fast a questionnaire is answered end to end: a 1,000-question workbook (XLSX, imported
 * through `POST /api/assessments/import`) against a 10,000-entry library, from the upload until the batch is
 * `completed`, without an LLM. Targets: ≥ 50 questions/s on this 2-core machine with lexical retrieval, ≥ 100
 * questions/s on the embedded database with the built-in embedding model (the library embedded before the import
 * is timed: an assessment never waits for the sweep).
 *
 *   npm run bench:assessment                       # embedded database, the worker inside the API process:
 *                                                  # without the model, then with it
 *   EMBEDDING_PROVIDER=none npm run bench:assessment     # without the model only (or RUNS=lexical; RUNS=model)
 *   DATABASE_URL=postgres://… npm run bench:assessment   # PostgreSQL: one, then two `npm run worker` processes
 *   QUESTIONS=1000 ENTRIES=10000 WORKER_CONCURRENCY=2 npm run bench:assessment
 *
 * Limits: the API process runs with the product's defaults except that it lets one organization have QUESTIONS
 * questions open when that is more than the default (the first line printed says which); any refusal stops the
 * bench with the request's status, URL and body.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase, type Db } from '../server/db/client';
import { canonicalAnswers } from '../server/db/schema';
import { createEmbedder, type Embedder } from '../server/embedding/embedder';
import { createMailer } from '../server/mail/mailer';
import { createStorage } from '../server/storage/create';
import { startWorker } from '../server/worker/worker';
import { extractInThread } from '../server/ingest/thread';
import { libraryEntries, questionnaireXlsx } from './fixtures';
import { defaultLimit, FIXED, limitsLine } from './limits';
import { fetchOk, importOverHttp, signUpOverHttp } from './over-http';
import { createScratchDatabase } from '../test/helpers/scratch-database';

/** The machine's load averages (1, 5, 15 min): other work on a shared machine moves every figure here. */
const loadAverage = () => Array.from(os.loadavg(), (l) => l.toFixed(1)).join(' ');
const PG_URL = process.env.DATABASE_URL;
const ENTRIES = Number(process.env.ENTRIES ?? 10_000);
const QUESTIONS = Number(process.env.QUESTIONS ?? 1000);
const CONCURRENCY = Number(process.env.WORKER_CONCURRENCY ?? (PG_URL ? 2 : 1));
/** Which embedded-database runs: without the model (`lexical`), with it (`model`), or both. */
const RUNS = (process.env.RUNS ?? 'lexical,model').split(',');

type Api = { base: string; cookie: string };
type Result = { label: string; questionsPerSecond: number };

const SECRET = 'bench-secret-bench-secret-bench';
const log = pino({ level: 'silent' });

/**
 * The API process's configuration. Questions answered by the workers do not count against the questions a minute
 * (those limit asks); what an import of QUESTIONS questions needs is that many open questions for one organization.
 */
function apiConfig(dataDir: string) {
  const open = defaultLimit('ASSESSMENT_OPEN_QUESTIONS_PER_ORG');
  return loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: SECRET,
    ASSESSMENT_OPEN_QUESTIONS_PER_ORG: String(Math.max(open, QUESTIONS)),
  });
}

/** The embedder EMBEDDING_PROVIDER asks for (default: the built-in model), as `npm start` would make it. */
async function embedderFromEnv(dataDir: string): Promise<Embedder | null> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: SECRET,
    EMBEDDING_PROVIDER: process.env.EMBEDDING_PROVIDER,
    MODELS_DIR: process.env.MODELS_DIR,
  });
  const embedder = await createEmbedder(config.embedding, null, log);
  if (!embedder && config.embedding.provider === 'local')
    throw new Error(
      `The embedding model is not in ${config.embedding.modelsDir}: run \`npm run models\` first (or EMBEDDING_PROVIDER=none).`,
    );
  return embedder;
}

/** Waits until every library entry has a vector of `model` (the background sweep's work), printing how long. */
async function waitForLibraryEmbedded(db: Db, model: string) {
  const t0 = performance.now();
  for (;;) {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(canonicalAnswers)
      .where(and(eq(canonicalAnswers.embeddingModel, model), sql`${canonicalAnswers.embedding} is not null`));
    if ((row?.n ?? 0) >= ENTRIES) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const s = (performance.now() - t0) / 1000;
  console.log(
    `  library embedded by the worker's background sweep in ${s.toFixed(1)} s after the import ` +
      `(${(ENTRIES / s).toFixed(0)} entries/s; the sweep looks every 5 s when idle), before the questionnaire is timed`,
  );
}

async function register(base: string): Promise<Api> {
  const stamp = Date.now();
  const { cookie } = await signUpOverHttp(base, {
    username: `bench${stamp}`,
    email: `bench${stamp}@example.com`,
    organizationName: 'Bench',
  });
  return { base, cookie };
}

async function importLibrary(api: Api) {
  const t0 = performance.now();
  // One entry per (practice, system) pair the questionnaire asks about, among thousands of unrelated entries, as
  // in a real library: each question has one right answer somewhere in 10,000.
  const calls = await importOverHttp(api.base, api.cookie, libraryEntries(ENTRIES));
  console.log(
    `Library: ${ENTRIES} entries imported in ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
      `(${calls} import call${calls === 1 ? '' : 's'})`,
  );
}

/** Uploads the workbook and waits for the batch to complete; returns seconds and the answer-type mix. */
async function runBatch(api: Api, label: string): Promise<Result> {
  const bytes = await questionnaireXlsx(QUESTIONS, label);
  const form = new FormData();
  form.append('name', `Bench ${label}`);
  form.append('file', new Blob([bytes]), 'questionnaire.xlsx');
  const t0 = performance.now();
  const res = await fetchOk(`${api.base}/api/assessments/import`, {
    method: 'POST',
    headers: { cookie: api.cookie },
    body: form,
  });
  const { id, totalQuestions } = (await res.json()) as { id: string; totalQuestions: number };
  const imported = performance.now();
  for (;;) {
    // A refused poll stops the bench: read as "no longer processing" it would end the timing early.
    const b = (await (
      await fetchOk(`${api.base}/api/assessments/${id}/batch`, { headers: { cookie: api.cookie } })
    ).json()) as {
      status: string;
    };
    if (b.status !== 'processing') break;
    // Polled like a browser tab would, a few times a second: the poll itself costs the database time.
    await new Promise((r) => setTimeout(r, 200));
  }
  const done = performance.now();
  const detail = (await (
    await fetchOk(`${api.base}/api/assessments/${id}`, { headers: { cookie: api.cookie } })
  ).json()) as {
    questions: Array<{ answerType: string | null; status: string }>;
  };
  const mix: Record<string, number> = {};
  for (const q of detail.questions) mix[q.answerType ?? q.status] = (mix[q.answerType ?? q.status] ?? 0) + 1;
  const seconds = (done - t0) / 1000;
  console.log(
    `  ${label.padEnd(42)} ${totalQuestions} questions in ${seconds.toFixed(2)} s ` +
      `(import ${((imported - t0) / 1000).toFixed(2)} s) → ${(totalQuestions / seconds).toFixed(1)} questions/s  ${JSON.stringify(mix)}`,
  );
  return { label, questionsPerSecond: totalQuestions / seconds };
}

/** One run on a fresh embedded database: the worker inside the API process, with or without the model. */
async function embeddedRun(withModel: boolean): Promise<Result[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-bench-assessment-'));
  const database = await openDatabase({ kind: 'pglite', dataDir });
  const config = apiConfig(dataDir);
  const storage = createStorage(config);
  const embedder = withModel ? await embedderFromEnv(dataDir) : null;
  const worker = startWorker({
    db: database.db,
    storage,
    log,
    extract: extractInThread,
    concurrency: CONCURRENCY,
    embedder,
  });
  const app = await buildApp({
    db: database.db,
    config,
    mailer: createMailer({ from: 'bench@verity', db: database.db, log }),
    log,
    storage,
    wakeWorker: worker.wake,
    embedder,
  });
  try {
    const api = await register(await app.listen({ port: 0, host: '127.0.0.1' }));
    console.log(
      `Embedded database, worker in the API process (concurrency ${CONCURRENCY}), ` +
        `${embedder ? `with the embedding model (${embedder.model})` : 'without an embedding model (lexical retrieval)'}:`,
    );
    await importLibrary(api);
    if (embedder) await waitForLibraryEmbedded(database.db, embedder.model);
    const tag = embedder ? 'with the model' : 'lexical';
    return [await runBatch(api, `${tag}, first batch (cold caches)`), await runBatch(api, `${tag}, second batch`)];
  } finally {
    await worker.stop();
    await app.close();
    await embedder?.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function embedded() {
  const results: Result[] = [];
  if (RUNS.includes('lexical')) results.push(...(await embeddedRun(false)));
  if (RUNS.includes('model') && process.env.EMBEDDING_PROVIDER !== 'none') {
    if (results.length > 0) console.log('');
    results.push(...(await embeddedRun(true)));
  }
  console.log('\nSummary (embedded database):');
  for (const r of results)
    console.log(`  ${r.label.padEnd(40)} ${r.questionsPerSecond.toFixed(1).padStart(6)} questions/s`);
  console.log(
    `Targets: ≥ 50 questions/s lexical, ≥ 100 with the model. node ${process.version}; ${os.cpus().length} cores; ` +
      `load average at the end ${loadAverage()}.`,
  );
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
  const scratch = await createScratchDatabase(url, 'verity_bench_assessment');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-bench-assessment-'));
  const database = await openDatabase({ kind: 'postgres', url: scratch.url });
  const config = apiConfig(dataDir);
  // The worker processes make their own embedder from the same EMBEDDING_PROVIDER (server/worker/main.ts).
  const embedder = await embedderFromEnv(dataDir);
  const app = await buildApp({
    db: database.db,
    config,
    mailer: createMailer({ from: 'bench@verity', db: database.db, log }),
    log,
    storage: createStorage(config),
    embedder,
  });
  const workers: ChildProcess[] = [];
  try {
    const api = await register(await app.listen({ port: 0, host: '127.0.0.1' }));
    await importLibrary(api);
    console.log(
      `PostgreSQL, API process + worker processes (each WORKER_CONCURRENCY=${CONCURRENCY}), ` +
        `${embedder ? `with the embedding model (${embedder.model})` : 'without an embedding model'}:`,
    );
    workers.push(await startWorkerProcess(scratch.url));
    if (embedder) await waitForLibraryEmbedded(database.db, embedder.model);
    await runBatch(api, 'one worker process (warm-up)');
    await runBatch(api, 'one worker process');
    workers.push(await startWorkerProcess(scratch.url));
    await runBatch(api, 'two worker processes');
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await app.close();
    await embedder?.close();
    await database.close();
    await scratch.drop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// Every run's API process reads apiConfig; its data directory does not change a limit.
console.log(`${limitsLine(apiConfig(os.tmpdir()), [FIXED.importEntries])}\n`);
(PG_URL ? onPostgres(PG_URL) : embedded()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
