/**
 * bench:embed — how fast the background sweep embeds uploaded documents' chunks with the built-in model, and
 * whether it slows the API down. Target: ≥ 75 chunks/s per embedding thread, while `GET /api/documents` stays as
 * fast as when idle.
 *
 *   npm run bench:embed
 *   PDF_PAGES=300 DOCX_PAGES=100 LIST_EVERY_MS=100 npm run bench:embed
 *
 * The documents are the generated policies of bench:ingest (test/fixtures/ingest/make-documents.ts), uploaded through the API and
 * extracted by a worker without an embedder, so extraction is over before the sweep is timed. The sweep is the
 * worker's own function (embedPending, in a loop as the embedding loop runs it) in this process, beside the API;
 * its model calls go to the one embedding thread. It runs twice over the same chunks (their vectors cleared in
 * between): alone, for the throughput, then with GET /api/documents sampled at a steady pace, for the latency.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { documentChunks } from '../server/db/schema';
import { createMailer } from '../server/mail/mailer';
import { createStorage } from '../server/storage/create';
import { createEmbedder, type Embedder } from '../server/embedding/embedder';
import { LocalEmbedder } from '../server/embedding/local-embedder';
import { modelDir, ownModel } from '../server/embedding/model-spec';
import { startWorker } from '../server/worker/worker';
import { embedPending } from '../server/worker/embed-sweep';
import { closeExtractionThreads, extractInThread } from '../server/ingest/thread';
import { makeDocx, makePdf } from '../test/fixtures/ingest/make-documents';
import { registerOrganization, uploadDocument } from './inject';
import { FIXED, limitsLine } from './limits';
import { timedDocumentList } from './over-http';
import { timingLine } from './percentile';

/** The machine's load averages (1, 5, 15 min): other work on a shared machine moves every figure here. */
const loadAverage = () => Array.from(os.loadavg(), (l) => l.toFixed(1)).join(' ');
const PDF_PAGES = Number(process.env.PDF_PAGES ?? 300);
const DOCX_PAGES = Number(process.env.DOCX_PAGES ?? 100);
const LIST_EVERY_MS = Number(process.env.LIST_EVERY_MS ?? 100);
const SECRET = 'bench-secret-bench-secret-bench';

const cpuSeconds = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1e6;

/** The embedder with its embedPassages calls timed: the model's share of the sweep, the rest being its SQL. */
function timed(embedder: Embedder) {
  const stats = { calls: 0, texts: 0, ms: 0 };
  const wrapped: Embedder = {
    model: embedder.model,
    kind: embedder.kind,
    log: embedder.log,
    notice: embedder.notice,
    embedQuery: (text) => embedder.embedQuery(text),
    embedQueries: (texts) => embedder.embedQueries(texts),
    async embedPassages(texts, opts) {
      const t = performance.now();
      try {
        return await embedder.embedPassages(texts, opts);
      } finally {
        stats.calls += 1;
        stats.texts += texts.length;
        stats.ms += performance.now() - t;
      }
    },
    close: () => embedder.close(),
  };
  return { wrapped, stats };
}

/** The product's limits but for sign-ups per IP address, lifted as a benchmark signs up at will; the built-in model. */
function embedConfig(dataDir: string) {
  return loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: SECRET,
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    EMBEDDING_PROVIDER: 'local',
    MODELS_DIR: process.env.MODELS_DIR,
  });
}

async function main() {
  // Uploads go one after another, each link used before the next is made; any refusal stops the bench (inject.ts).
  console.log(`${limitsLine(embedConfig(os.tmpdir()), [FIXED.uploadBytes])}\n`);
  console.log(`Generating a ${PDF_PAGES}-page PDF and a ${DOCX_PAGES}-page DOCX...`);
  const pdf = await makePdf(PDF_PAGES);
  const docx = await makeDocx(DOCX_PAGES);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-bench-embed-'));
  const database = await openDatabase({ kind: 'pglite', dataDir });
  const config = embedConfig(dataDir);
  const log = pino({ level: process.env.BENCH_LOG ?? 'silent' });
  const embedder = await createEmbedder(config.embedding, null, log);
  if (!embedder)
    throw new Error(`The embedding model is not in ${config.embedding.modelsDir}: run \`npm run models\` first.`);
  const storage = createStorage(config);
  // Extraction only: the sweep below is run by hand so that it can be timed from its first batch to its last.
  const worker = startWorker({ db: database.db, storage, log, extract: extractInThread, concurrency: 1, pollMs: 200 });
  const mailer = createMailer({ from: 'bench@verity', db: database.db, log });
  const app = await buildApp({ db: database.db, config, mailer, log, storage, wakeWorker: worker.wake, embedder });
  try {
    const cookie = await registerOrganization(app, 'emb', 'E');
    // Real HTTP for the timed calls, as in bench:ingest: requests arrive as I/O events between the sweep's steps.
    const list = timedDocumentList(await app.listen({ port: 0, host: '127.0.0.1' }), cookie);
    for (let i = 0; i < 20; i += 1)
      await uploadDocument(app, cookie, Buffer.from(`Policy ${i}: backups run daily.`), `p${i}.txt`);
    await uploadDocument(app, cookie, Buffer.from(pdf), 'policies.pdf');
    await uploadDocument(app, cookie, Buffer.from(docx), 'handbook.docx');
    let t0 = performance.now();
    while ((await list()).docs.some((d) => d.status === 'processing')) await new Promise((r) => setTimeout(r, 100));
    const docs = (await list()).docs;
    const chunks = docs.reduce((n, d) => n + d.extractedChunks, 0);
    console.log(
      `\n${docs.length} documents uploaded and extracted in ${((performance.now() - t0) / 1000).toFixed(1)} s: ` +
        `${chunks} chunks waiting for their vectors`,
    );

    // Requests at a steady pace (a few browser tabs polling), the same idle and during the sweep: requests back
    // to back would take a core of their own away from the embedding thread on a 2-core machine.
    const sample = async (into: number[], until: () => boolean) => {
      while (!until()) {
        const t = performance.now();
        into.push((await list()).ms);
        await new Promise((r) => setTimeout(r, Math.max(0, LIST_EVERY_MS - (performance.now() - t))));
      }
    };
    const idle: number[] = [];
    await sample(idle, () => idle.length >= 100);

    // The embedding thread starts on its first batch, loading its own copy of the model: timed apart.
    t0 = performance.now();
    await embedder.embedPassages(['warm up']);
    const threadStart = (performance.now() - t0) / 1000;

    const { wrapped, stats } = timed(embedder);
    /** One sweep over every waiting chunk; with `requests`, GET /api/documents is sampled while it runs. */
    const sweepAll = async (requests: number[] | null) => {
      await database.db.update(documentChunks).set({ embedding: null, embeddingModel: null });
      Object.assign(stats, { calls: 0, texts: 0, ms: 0 });
      let embedded = 0;
      let sweeping = true;
      const cpu0 = process.cpuUsage();
      const t = performance.now();
      const sweep = (async () => {
        try {
          for (;;) {
            const r = await embedPending(database.db, wrapped, { log });
            embedded += r.embedded;
            if (!r.more && r.embedded === 0) break;
          }
        } finally {
          sweeping = false;
        }
      })();
      if (requests) await sample(requests, () => !sweeping);
      await sweep;
      const seconds = (performance.now() - t) / 1000;
      const cpu = cpuSeconds(process.cpuUsage(cpu0));
      return { embedded, seconds, cpu, modelSeconds: stats.ms / 1000, batches: stats.calls };
    };
    const alone = await sweepAll(null);
    const busy: number[] = [];
    const withRequests = await sweepAll(busy);

    // The same model on the same texts without the sweep's queries and without requests beside it.
    const rows = await database.db
      .select({ section: documentChunks.section, text: documentChunks.text })
      .from(documentChunks)
      .where(eq(documentChunks.embeddingModel, embedder.model))
      .orderBy(sql`random()`)
      .limit(256);
    const texts = rows.map((r) => (r.section ? `${r.section}\n${r.text}` : r.text));
    t0 = performance.now();
    const alone0 = process.cpuUsage();
    await embedder.embedPassages(texts);
    const aloneS = (performance.now() - t0) / 1000;
    const aloneCpu = cpuSeconds(process.cpuUsage(alone0));
    // The model's tokenizer, for the chunks' lengths in tokens (Verity's own and the published one share it).
    const spec = ownModel();
    const local = await LocalEmbedder.load(modelDir(config.embedding.ownModelsDir, spec), spec);
    const tokens = texts.map((t) => local.tokenize(t, 'passage').length);
    const chars = texts.map((t) => t.length);
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

    console.log(`\nEmbedding sweep (embedPending in a loop, batches of 64, one embedding thread, ${embedder.model}):`);
    const report = (label: string, r: typeof alone) =>
      console.log(
        `  ${label.padEnd(34)} ${r.embedded} chunks in ${r.seconds.toFixed(1)} s → ${(r.embedded / r.seconds).toFixed(1)} chunks/s; ` +
          `model calls ${r.modelSeconds.toFixed(1)} s of it (${r.batches} batches), the sweep's SQL the rest; ` +
          `process CPU ${r.cpu.toFixed(1)} s (${(r.cpu / r.seconds).toFixed(2)} cores) → ` +
          `${(r.embedded / r.cpu).toFixed(1)} chunks per CPU-second`,
      );
    console.log(
      `  the embedding thread's start (its copy of the model loaded): ${threadStart.toFixed(1)} s, before these`,
    );
    report('alone', alone);
    report(`with GET /api/documents every ${LIST_EVERY_MS} ms`, withRequests);
    console.log(
      `  the model alone on ${texts.length} of these chunks (embedPassages, no SQL): ` +
        `${(texts.length / aloneS).toFixed(1)} chunks/s, ${(texts.length / aloneCpu).toFixed(1)} per CPU-second; ` +
        `chunks average ${avg(chars).toFixed(0)} characters, ${avg(tokens).toFixed(0)} tokens ` +
        `(${tokens.filter((n) => n >= spec.maxTokens).length} cut at ${spec.maxTokens})`,
    );
    console.log(`GET /api/documents (${docs.length} documents) over HTTP, one every ${LIST_EVERY_MS} ms:`);
    console.log(timingLine('idle', idle));
    console.log(timingLine('during the sweep', busy));
    console.log(
      `\nTarget: ≥ 75 chunks/s per embedding thread, GET /api/documents as fast as idle. Database: ${database.kind}; ` +
        `node ${process.version}; ${os.cpus().length} cores; load average at the end ` +
        `${loadAverage()}.`,
    );
  } finally {
    await app.close();
    await worker.stop();
    await embedder.close();
    await closeExtractionThreads();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
