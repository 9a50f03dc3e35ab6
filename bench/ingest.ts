/**
 * bench:ingest — document extraction throughput, and whether it slows the API down (issue: "a 50 MB PDF being
 * processed must not make other requests slow"). Generates a 300-page PDF and a 100-page DOCX, times their
 * extraction in an extraction thread, then uploads the PDF through the real API and measures GET /api/documents
 * while the background worker processes it, against the same calls when idle.
 *
 *   npm run bench:ingest           # embedded PGlite
 *   PDF_PAGES=600 DOCX_PAGES=200 npm run bench:ingest
 */
import fs from 'node:fs';
import os from 'node:os';
import pino from 'pino';
import { buildApp } from '../server/app';
import { createMailer } from '../server/mail/mailer';
import { createStorage } from '../server/storage/create';
import { startWorker } from '../server/worker/worker';
import { closeExtractionThreads, extractInThread } from '../server/ingest/thread';
import { makeDocx, makePdf } from '../test/fixtures/ingest/make-documents';
import { benchConfig, openBenchDatabase } from './bench-database';
import { registerOrganization, uploadDocument } from './inject';
import { FIXED, limitsLine } from './limits';
import { timedDocumentList } from './over-http';
import { timingLine } from './percentile';

const PDF_PAGES = Number(process.env.PDF_PAGES ?? 300);
const DOCX_PAGES = Number(process.env.DOCX_PAGES ?? 100);

const mb = (bytes: number) => bytes / (1024 * 1024);

async function throughput(name: string, bytes: Uint8Array, file: string, pages: number) {
  await extractInThread(bytes, file); // warm the thread and the libraries
  const t0 = performance.now();
  const doc = await extractInThread(bytes, file);
  const s = (performance.now() - t0) / 1000;
  console.log(
    `  ${name.padEnd(18)} ${mb(bytes.length).toFixed(2).padStart(6)} MB  ${s.toFixed(2).padStart(6)} s  ` +
      `${(mb(bytes.length) / s).toFixed(2).padStart(6)} MB/s  ${(pages / s).toFixed(1).padStart(6)} pages/s  ` +
      `${doc.chunks.length} chunks`,
  );
}

async function main() {
  // Uploads go one after another, each link used before the next is made; any refusal stops the bench (inject.ts).
  console.log(`${limitsLine(benchConfig(os.tmpdir()), [FIXED.uploadBytes])}\n`);
  console.log(`Generating a ${PDF_PAGES}-page PDF and a ${DOCX_PAGES}-page DOCX...`);
  const pdf = await makePdf(PDF_PAGES);
  const docx = await makeDocx(DOCX_PAGES);
  console.log('\nExtraction in an extraction thread (second run of each; text, pages, sections and chunking):');
  await throughput(`PDF, ${PDF_PAGES} pages`, pdf, 'bench.pdf', PDF_PAGES);
  await throughput(`DOCX, ${DOCX_PAGES} pages`, docx, 'bench.docx', DOCX_PAGES);

  const { dataDir, database, config } = await openBenchDatabase('verity-bench-ingest-');
  const log = pino({ level: process.env.BENCH_LOG ?? 'silent' });
  const storage = createStorage(config);
  const worker = startWorker({ db: database.db, storage, log, extract: extractInThread, concurrency: 1, pollMs: 200 });
  const mailer = createMailer({ from: 'bench@verity', db: database.db, log });
  const app = await buildApp({ db: database.db, config, mailer, log, storage, wakeWorker: worker.wake });
  try {
    const cookie = await registerOrganization(app, 'ing', 'I');
    // Real HTTP for the timed calls (see timedDocumentList).
    const list = timedDocumentList(await app.listen({ port: 0, host: '127.0.0.1' }), cookie);
    // A few small documents so the list has something to return.
    for (let i = 0; i < 20; i += 1)
      await uploadDocument(app, cookie, Buffer.from(`Policy ${i}: backups run daily.`), `p${i}.txt`);
    while ((await list()).docs.some((d) => d.status === 'processing')) await new Promise((r) => setTimeout(r, 100));

    const idle: number[] = [];
    for (let i = 0; i < 200; i += 1) idle.push((await list()).ms);

    const t0 = performance.now();
    await uploadDocument(app, cookie, Buffer.from(pdf), 'big.pdf');
    const busy: number[] = [];
    for (;;) {
      const { ms, docs } = await list();
      busy.push(ms);
      if (!docs.some((d) => d.status === 'processing')) break;
    }
    const total = (performance.now() - t0) / 1000;
    const [big] = (await list()).docs;
    console.log(
      `\nUpload + registration + background processing of the ${PDF_PAGES}-page PDF through the API: ${total.toFixed(2)} s ` +
        `(${big?.extractedChunks ?? 0} chunks stored)`,
    );
    console.log('GET /api/documents (21 documents) over HTTP, back to back:');
    console.log(timingLine('idle', idle));
    console.log(timingLine('during ingestion', busy));
    console.log(`\nDatabase: ${database.kind}; node ${process.version}; ${os.cpus().length} cores.`);
  } finally {
    await app.close();
    await worker.stop();
    await closeExtractionThreads();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
