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
 *
 * Two processes. The first builds the workspace: the library goes in through the import API and is embedded for
 * real by the background sweep's own function (embedPending); the chunks are written straight into the database
 * (through the upload path they would need 100,000 chunks' worth of real files, which measures ingestion, not
 * asking), each with a vector: POOL real chunk texts are embedded by the model and every chunk gets one of those
 * vectors plus a little gaussian noise (embedding 100,000 chunks for real would take the best part of an hour).
 * The second process is the server as after a restart, on that database: its memory is the server's alone, not
 * the builder's, and its first ask loads the vector index from the database as a real first ask does.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase, type Db } from '../server/db/client';
import { createMailer } from '../server/mail/mailer';
import { createStorage } from '../server/storage/create';
import { canonicalAnswers, documentChunks, documents } from '../server/db/schema';
import { createEmbedder, type Embedder } from '../server/embedding/embedder';
import { VectorTable } from '../server/embedding/vector-table';
import { analyzeQuestion, answerQuestion, decide } from '../server/engine/answer';
import { lexemeFrequency } from '../server/engine/lexeme-stats';
import { retrieveChunks, retrieveEntries, type Scope } from '../server/engine/retrieve';
import { searchVectors } from '../server/engine/vector-index';
import { embedPending } from '../server/worker/embed-sweep';
import { policyPage } from '../server/ingest/testing';
import { SYSTEMS, TOPICS } from './fixtures';

const ENTRIES = Number(process.env.ENTRIES ?? 10_000);
const CHUNKS = Number(process.env.CHUNKS ?? 100_000);
const QUESTIONS = Number(process.env.QUESTIONS ?? 500);
const POOL = Number(process.env.POOL ?? 1000);
/** Per-component standard deviation of the noise added to a pool vector: cosine ≈ 0.98 to the vector it came from. */
const NOISE = 0.01;
/** What vector-candidates.ts asks the vector index for. */
const VECTOR_K = { entries: 20, chunks: 12 };
const SECRET = 'bench-secret-bench-secret-bench';
const PER_DOC = 1000;

const log = pino({ level: 'silent' });
const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;
const secs = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);

function pct(ms: number[], p: number) {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
}
const line = (label: string, ms: number[]) =>
  console.log(
    `  ${label.padEnd(52)} p50 ${pct(ms, 0.5).toFixed(1).padStart(6)} ms   p95 ${pct(ms, 0.95).toFixed(1).padStart(6)} ms   ` +
      `max ${Math.max(...ms).toFixed(1).padStart(6)} ms`,
  );

function configFor(dataDir: string) {
  return loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: SECRET,
    EMBEDDING_PROVIDER: process.env.EMBEDDING_PROVIDER,
    MODELS_DIR: process.env.MODELS_DIR,
  });
}

async function embedderFor(config: ReturnType<typeof configFor>): Promise<Embedder | null> {
  const embedder = await createEmbedder(config.embedding, null, log);
  if (!embedder && config.embedding.provider === 'local')
    throw new Error(
      `The embedding model is not in ${config.embedding.modelsDir}: run \`npm run models\` first (or EMBEDDING_PROVIDER=none for the lexical figures).`,
    );
  return embedder;
}

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
async function build(dataDir: string) {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  const config = configFor(dataDir);
  const embedder = await embedderFor(config);
  const mailer = createMailer({ from: 'bench@verity', db: database.db, log });
  const app = await buildApp({ db: database.db, config, mailer, log, storage: createStorage(config) });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const reg = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'askbench',
        email: 'ask@example.com',
        password: 'bench-pass',
        organizationName: 'A',
      }),
    });
    const me = (await reg.json()) as { user: { organizationId: string } };
    const cookie = (reg.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const ws = (await (await fetch(`${base}/api/workspaces`, { headers: { cookie } })).json()) as Array<{ id: string }>;
    const organizationId = me.user.organizationId;
    const workspaceId = ws[0]?.id ?? '';

    let t0 = performance.now();
    const entries = Array.from({ length: ENTRIES }, (_, i) => ({
      question: `Do you ${TOPICS[i % TOPICS.length]} for ${SYSTEMS[Math.floor(i / TOPICS.length) % SYSTEMS.length]} (control ${i})?`,
      answer: `Yes. We ${TOPICS[i % TOPICS.length]} for ${SYSTEMS[Math.floor(i / TOPICS.length) % SYSTEMS.length]}; evidence EV-${i}.`,
      tags: [`domain-${i % 12}`],
    }));
    const imp = await fetch(`${base}/api/canonical-answers/import`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ entries }),
    });
    if (!imp.ok) throw new Error(`import failed: ${imp.status}`);
    console.log(`Library: ${ENTRIES} entries imported in ${secs(t0)} s`);

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
    console.log(
      `Documents: ${CHUNKS} chunks written${pool.length ? ' with their vectors' : ''} in ${secs(t0)} s\n`,
    );
    return { cookie, organizationId, workspaceId };
  } finally {
    await app.close();
    await embedder?.close();
    await database.close();
  }
}

const questionOf = (i: number) => {
  const topic = TOPICS[(i * 7) % TOPICS.length] ?? '';
  const system = SYSTEMS[(i * 3) % SYSTEMS.length] ?? '';
  const forms = [`Do you ${topic} for ${system}?`, `How often do you ${topic}?`, `Is it policy to ${topic} (ref ${i})?`];
  return forms[i % forms.length] ?? '';
};

function memory(label: string) {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  console.log(
    `  ${label.padEnd(52)} RSS ${mb(m.rss).padStart(7)}  (JS heap ${mb(m.heapUsed)}, array buffers ${mb(m.arrayBuffers)}, ` +
      `external ${mb(m.external)})`,
  );
  return m.rss;
}

/** The vector index's freshness check (vector-index.ts `fingerprint`), run by the first ask every 2 s at most. */
async function freshnessCheck(db: Db, s: Omit<Scope, 'db'>, model: string) {
  const ca = canonicalAnswers;
  const dc = documentChunks;
  await db
    .select({ n: sql`count(*)::text`, h: sql`coalesce(sum(hashtext(${ca.id}::text || ':' || ${ca.version})), 0)::text` })
    .from(ca)
    .where(and(eq(ca.workspaceId, s.workspaceId), eq(ca.embeddingModel, model), sql`${ca.embedding} is not null`));
  await db
    .select({ n: sql`count(*)::text`, h: sql`coalesce(sum(hashtext(${dc.id}::text)), 0)::text` })
    .from(dc)
    .where(and(eq(dc.workspaceId, s.workspaceId), eq(dc.embeddingModel, model), sql`${dc.embedding} is not null`));
}

/** Second process: the server after a restart on the built database; every figure of the target is taken here. */
async function serve(dataDir: string, ids: { cookie: string; organizationId: string; workspaceId: string }) {
  console.log(`Server process (pid ${process.pid}), started on that database:`);
  const rssStart = memory('at start (nothing loaded)');
  const database = await openDatabase({ kind: 'pglite', dataDir });
  const config = configFor(dataDir);
  const embedder = await embedderFor(config);
  const mailer = createMailer({ from: 'bench@verity', db: database.db, log });
  const app = await buildApp({ db: database.db, config, mailer, log, storage: createStorage(config), embedder });
  const scope: Scope = { db: database.db, organizationId: ids.organizationId, workspaceId: ids.workspaceId };
  const { cookie } = ids;
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const ask = async (question: string) => {
      const res = await fetch(`${base}/api/qa/ask`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ question }),
      });
      await res.json();
      if (!res.ok) throw new Error(`ask failed: ${res.status}`);
    };
    if (embedder) await embedder.embedQuery('load the model'); // its session is made on the first call
    const rssModel = memory(`database open${embedder ? ', model loaded' : ''}, app listening`);

    // What the first ask after a start does anyway, timed apart: table statistics (engine/lexeme-stats.ts) and
    // the library's in-memory index (engine/library-index.ts).
    let t0 = performance.now();
    await lexemeFrequency(database.db, 'document_chunks');
    await lexemeFrequency(database.db, 'canonical_answers');
    const stats = secs(t0);
    t0 = performance.now();
    await retrieveEntries(scope, 'warm up the library index');
    console.log(`  statistics (ANALYZE) ${stats} s; library index of ${ENTRIES} entries built in ${secs(t0)} s`);

    // The first ask loads the vector index; it waits for it at most 3 s, then searches what is loaded so far
    // while the load goes on. Done when a sample of chunks and entries all have a similarity.
    const sample = embedder
      ? await database.db.execute(sql`
          (select id from document_chunks where workspace_id = ${scope.workspaceId} order by random() limit 200)
          union all
          (select id from canonical_answers where workspace_id = ${scope.workspaceId} order by random() limit 50)`)
      : { rows: [] };
    const sampleIds = (sample as { rows: Array<{ id: string }> }).rows.map((r) => r.id);
    t0 = performance.now();
    await ask('Do you keep an inventory of hardware assets?');
    const firstAsk = performance.now() - t0;
    let loaded = firstAsk;
    if (embedder) {
      const probe = await embedder.embedQuery('hardware inventory');
      for (;;) {
        const r = await searchVectors(scope, embedder.model, probe, { entries: 1, chunks: 1 });
        if (sampleIds.every((id) => r.chunkSimilarity(id) !== undefined || r.entrySimilarity(id) !== undefined)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      loaded = performance.now() - t0;
    }
    console.log(
      `  first ask: ${firstAsk.toFixed(0)} ms` +
        (embedder ? `; vector index (${ENTRIES} entries + ${CHUNKS} chunks) fully loaded ${(loaded / 1000).toFixed(1)} s after it began` : ''),
    );
    const rssIndex = memory('after the first ask (vector index loaded)');
    console.log(
      `  → database, app${embedder ? ' and model' : ''}: +${mb(rssModel - rssStart)}; first ask, library and vector indexes: +${mb(rssIndex - rssModel)}`,
    );

    const questions = Array.from({ length: QUESTIONS }, (_, i) => questionOf(i));
    for (let i = 0; i < 20; i += 1) await ask(`warm up question ${i} about backups`);
    // Asks first: the parts-alone loop can outlast the server's keep-alive timeout, and a POST on a socket the
    // server has closed fails with ECONNRESET.
    const askMs: number[] = [];
    for (const q of questions) {
      const s = performance.now();
      await ask(q);
      askMs.push(performance.now() - s);
    }
    const parts = {
      embed: [] as number[],
      library: [] as number[],
      chunks: [] as number[],
      vector: [] as number[],
      analyze: [] as number[],
      decide: [] as number[],
      engine: [] as number[],
    };
    const time = async <T>(into: number[], f: () => Promise<T> | T): Promise<T> => {
      const s = performance.now();
      const out = await f();
      into.push(performance.now() - s);
      return out;
    };
    for (const q of questions) {
      if (embedder) {
        const v = await time(parts.embed, () => embedder.embedQuery(q));
        await time(parts.vector, () => searchVectors(scope, embedder.model, v, VECTOR_K));
      }
      await time(parts.library, () => retrieveEntries(scope, q));
      await time(parts.chunks, () => retrieveChunks(scope, q));
      const a = await time(parts.analyze, () => analyzeQuestion(scope, q, { embedder }));
      await time(parts.decide, () => decide(a));
      await time(parts.engine, () => answerQuestion(scope, q, undefined, { embedder }));
    }

    console.log(`\n${QUESTIONS} distinct questions, one after another, after the first ask:`);
    line('POST /api/qa/ask over HTTP', askMs);
    console.log('Its parts, each alone (same questions, called in this process):');
    if (embedder) line('the question\'s embedding (embedQuery, this thread)', parts.embed);
    line('library retrieval (in-memory index + its freshness query)', parts.library);
    line('chunk retrieval, lexical SQL', parts.chunks);
    if (embedder) line(`vector search (searchVectors, k ${VECTOR_K.entries}+${VECTOR_K.chunks})`, parts.vector);
    line(`retrieval as the engine runs it (analyzeQuestion)`, parts.analyze);
    line('ranking and the decision (decide)', parts.decide);
    line('the whole engine (answerQuestion)', parts.engine);

    if (embedder) {
      // The vector search above includes the index's freshness check when one is due; the scan alone and the
      // check alone, for the profile.
      const rows = (await database.db
        .select({ id: documentChunks.id, embedding: documentChunks.embedding })
        .from(documentChunks)
        .where(eq(documentChunks.workspaceId, scope.workspaceId))) as Array<{ id: string; embedding: number[] | null }>;
      const table = new VectorTable(rows[0]?.embedding?.length ?? 384);
      for (const r of rows) if (r.embedding) table.set(r.id, r.id, r.embedding);
      const scan: number[] = [];
      const check: number[] = [];
      for (const q of questions.slice(0, 200)) {
        const v = Float32Array.from(await embedder.embedQuery(q));
        await time(scan, () => table.nearest(v, VECTOR_K.chunks));
      }
      for (let i = 0; i < 50; i += 1) await time(check, () => freshnessCheck(database.db, scope, embedder.model));
      line(`int8 scan alone (VectorTable.nearest, ${table.size} chunks)`, scan);
      line('index freshness check alone (due every 2 s at most)', check);
    }
    console.log(
      `\nTarget: p95 ≤ 40 ms including the question's embedding. Database: pglite (embedded); ` +
        `embedder: ${embedder?.model ?? 'none (lexical only)'}; node ${process.version}; ${os.cpus().length} cores; ` +
        `load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}.`,
    );
  } finally {
    await app.close();
    await embedder?.close();
    await database.close();
  }
}

async function main() {
  const serving = process.env.BENCH_ASK_SERVE;
  if (serving) {
    await serve(serving, JSON.parse(process.env.BENCH_ASK_IDS ?? '{}') as Parameters<typeof serve>[1]);
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-bench-ask-'));
  try {
    const ids = await build(dataDir);
    // The server, as a process of its own: --expose-gc so memory is read after a collection.
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_ASK_SERVE: dataDir, BENCH_ASK_IDS: JSON.stringify(ids) },
      stdio: 'inherit',
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`the server process exited with code ${code}`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
