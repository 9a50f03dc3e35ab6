/**
 * bench:ask — latency of `POST /api/qa/ask` on a big workspace with the built-in embedding model: 10,000 library
 * entries and 100,000 document chunks in the embedded database, 500 distinct questions, p50 / p95 over real HTTP,
 * next to its parts (the question's embedding, the library index, the chunks' lexical SQL, the vector search).
 * Target: p95 ≤ 40 ms including the question's embedding. Also prints the first ask after a start (it loads the
 * workspace's vector index) and the server process's memory with the model and the index loaded.
 *
 *   npm run bench:ask
 *   ENTRIES=10000 CHUNKS=100000 QUESTIONS=500 POOL=1000 npm run bench:ask
 *   EMBEDDING_PROVIDER=none npm run bench:ask       # lexical retrieval only, no model (the figures before it)
 *   ASK_DATA_DIR=/tmp/ask npm run bench:ask         # keep the built database; the next run only runs the server
 *
 * Two processes. The first builds the workspace: the library goes in through the import API and is embedded for
 * real by the background sweep's own function (embedPending); the chunks are written straight into the database
 * (through the upload path they would need 100,000 chunks' worth of real files, which measures ingestion, not
 * asking), each with a vector: POOL real chunk texts are embedded by the model and every chunk gets one of those
 * vectors plus a little gaussian noise (embedding 100,000 chunks for real would take the best part of an hour).
 * The second process is the server as after a restart, on that database: its memory is the server's alone, not
 * the builder's, and its first ask loads the vector index from the database as a real first ask does.
 *
 * Limits: the questions-a-minute limits are lifted for the run (configFor) and the first line printed says so; any
 * other refusal stops the bench with the request's status, URL and body.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app';
import { openDatabase } from '../server/db/client';
import { createMailer } from '../server/mail/mailer';
import { createStorage } from '../server/storage/create';
import { documentChunks, documents } from '../server/db/schema';
import { embedPending } from '../server/worker/embed-sweep';
import { policyPage } from '../test/fixtures/ingest/make-documents';
import { SYSTEMS, TOPICS } from './fixtures';
import {
  ASK_FIXED_LIMITS,
  CHUNKS,
  ENTRIES,
  SECRET,
  configFor,
  embedderFor,
  log,
  questionOf,
  secs,
  serve,
  type AskIds,
} from './ask-serve';
import { askShipped } from './ask-shipped';
import { ensureServerBuilt } from '../scripts/build.mjs';
import { limitsLine } from './limits';
import { fetchOk, importOverHttp, signUpOverHttp } from './over-http';

const POOL = Number(process.env.POOL ?? 1000);
/** Per-component standard deviation of the noise added to a pool vector: cosine ≈ 0.98 to the vector it came from. */
const NOISE = 0.01;
const PER_DOC = 1000;
const IDS_FILE = 'bench-ask.json';

/** A deterministic generator of standard normal numbers (mulberry32 + Box–Muller), so every run gets the same noise. */
function gaussian(seed: number) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** The pool vector plus noise, back to length 1, rounded to 6 decimals (real[] keeps ~7 digits; the index int8). */
function noisy(base: ArrayLike<number>, normal: () => number): number[] {
  const v = Array.from(base, (x) => x + NOISE * normal());
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}

const chunkPage = (k: number) => {
  const page = policyPage(k, Math.floor(k / PER_DOC), 420);
  return { section: page.heading, text: page.paragraphs.join(' ').slice(0, 1000) };
};

/** First process: the workspace, written to `dataDir`; returns what the server process needs to ask. */
async function build(dataDir: string): Promise<AskIds> {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  const config = configFor(dataDir);
  const embedder = await embedderFor(config);
  const mailer = createMailer({ from: 'bench@verity', db: database.db, log });
  const app = await buildApp({ db: database.db, config, mailer, log, storage: createStorage(config) });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const me = await signUpOverHttp(base, { username: 'askbench', email: 'ask@example.com', organizationName: 'A' });
    const cookie = me.cookie;
    const ws = (await (await fetchOk(`${base}/api/workspaces`, { headers: { cookie } })).json()) as Array<{
      id: string;
    }>;
    const organizationId = me.user.organizationId;
    const workspaceId = ws[0]?.id ?? '';

    let t0 = performance.now();
    const entries = Array.from({ length: ENTRIES }, (_, i) => ({
      question: `Do you ${TOPICS[i % TOPICS.length]} for ${SYSTEMS[Math.floor(i / TOPICS.length) % SYSTEMS.length]} (control ${i})?`,
      answer: `Yes. We ${TOPICS[i % TOPICS.length]} for ${SYSTEMS[Math.floor(i / TOPICS.length) % SYSTEMS.length]}; evidence EV-${i}.`,
      tags: [`domain-${i % 12}`],
    }));
    const calls = await importOverHttp(base, cookie, entries);
    console.log(
      `Library: ${ENTRIES} entries imported in ${secs(t0)} s (${calls} import call${calls === 1 ? '' : 's'})`,
    );

    let pool: Array<ArrayLike<number>> = [];
    if (embedder) {
      t0 = performance.now();
      let embedded = 0;
      for (;;) {
        const r = await embedPending(database.db, embedder, { log });
        embedded += r.embedded;
        if (!r.more && r.embedded === 0) break;
      }
      const s = (performance.now() - t0) / 1000;
      console.log(
        `  embedded for real by the background sweep's embedPending (batches of 64, one embedding thread): ` +
          `${embedded} entries in ${s.toFixed(1)} s → ${(embedded / s).toFixed(0)} entries/s`,
      );
      t0 = performance.now();
      // The text the sweep embeds for a chunk: its section, a line break, its text.
      const texts = Array.from({ length: Math.min(POOL, CHUNKS) }, (_, k) => {
        const c = chunkPage(k);
        return `${c.section}\n${c.text}`;
      });
      pool = await embedder.embedPassages(texts);
      const ps = (performance.now() - t0) / 1000;
      console.log(
        `Chunk vectors: a pool of ${pool.length} real chunk texts embedded with embedPassages in ${ps.toFixed(1)} s ` +
          `(${(pool.length / ps).toFixed(1)} chunks/s); each of the ${CHUNKS} chunks gets pool vector (k mod ${pool.length}) ` +
          `plus gaussian noise (σ ${NOISE} per component, cosine ≈ 0.98), renormalized`,
      );
    }

    t0 = performance.now();
    const normal = gaussian(42);
    for (let d = 0; d < CHUNKS / PER_DOC; d += 1) {
      const [doc] = await database.db
        .insert(documents)
        .values({
          organizationId,
          workspaceId,
          storageKey: `org/${organizationId}/uploads/bench-${d}`,
          originalName: `policy-${d}.pdf`,
          mimeType: 'application/pdf',
          kind: 'pdf',
          size: 1,
          status: 'ready',
          chunkCount: PER_DOC,
        })
        .returning({ id: documents.id });
      if (!doc) throw new Error('no document');
      const rows = Array.from({ length: PER_DOC }, (_, i) => {
        const k = d * PER_DOC + i;
        const vector = pool.length > 0 ? noisy(pool[k % pool.length] ?? [], normal) : null;
        return {
          documentId: doc.id,
          organizationId,
          workspaceId,
          ordinal: i,
          page: i + 1,
          ...chunkPage(k),
          embedding: vector,
          embeddingModel: vector ? (embedder?.model ?? null) : null,
        };
      });
      for (let i = 0; i < rows.length; i += 250)
        await database.db.insert(documentChunks).values(rows.slice(i, i + 250));
    }
    console.log(`Documents: ${CHUNKS} chunks written${pool.length ? ' with their vectors' : ''} in ${secs(t0)} s\n`);
    return { cookie, organizationId, workspaceId };
  } finally {
    await app.close();
    await embedder?.close();
    await database.close();
  }
}

async function main() {
  const serving = process.env.BENCH_ASK_SERVE;
  if (serving) {
    await serve(serving, JSON.parse(fs.readFileSync(path.join(serving, IDS_FILE), 'utf8')) as AskIds);
    return;
  }
  // ASK_DATA_DIR keeps the built database (and a second run reuses it), for profiling the server alone.
  const keep = process.env.ASK_DATA_DIR;
  const dataDir = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'verity-bench-ask-'));
  // The builder and the server read the same configuration (configFor).
  console.log(`${limitsLine(configFor(dataDir), ASK_FIXED_LIMITS)}\n`);
  try {
    if (!fs.existsSync(path.join(dataDir, IDS_FILE))) {
      fs.mkdirSync(dataDir, { recursive: true });
      const ids = await build(dataDir);
      fs.writeFileSync(path.join(dataDir, IDS_FILE), JSON.stringify(ids));
    } else console.log(`Reusing the workspace built in ${dataDir}\n`);
    // The server, as a process of its own: --expose-gc so memory is read after a collection. ASK_NODE_ARGS adds
    // node options (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
    const nodeArgs = (process.env.ASK_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const child = spawn(
      process.execPath,
      ['--expose-gc', ...nodeArgs, '--import', 'tsx', fileURLToPath(import.meta.url)],
      { env: { ...process.env, BENCH_ASK_SERVE: dataDir }, stdio: 'inherit' },
    );
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`the server process exited with code ${code}`);
    // Then the product as shipped, on the same database (ASK_SHIPPED=0 leaves it out).
    if (process.env.ASK_SHIPPED !== '0') {
      await ensureServerBuilt();
      const ids = JSON.parse(fs.readFileSync(path.join(dataDir, IDS_FILE), 'utf8')) as AskIds;
      await askShipped(
        dataDir,
        ids,
        SECRET,
        Array.from({ length: 200 }, (_, i) => questionOf(i + 1000)),
      );
    }
  } finally {
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
