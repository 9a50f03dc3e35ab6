/**
 * bench:ask — latency of `POST /api/qa/ask` on a big workspace: 10,000 library entries and 100,000 document chunks
 * in the embedded database, 500 distinct questions, p50 / p95 over real HTTP, next to the retrieval SQL alone.
 * Target: p95 ≤ 50 ms without an LLM.
 *
 *   npm run bench:ask
 *   ENTRIES=10000 CHUNKS=100000 QUESTIONS=500 npm run bench:ask
 *
 * The library goes in through the import API; the chunks are written straight into the database (through the
 * upload path they would need 100,000 chunks' worth of real files, which measures ingestion, not asking).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { createMailer } from '../server/mail/mailer';
import { createStorage } from '../server/storage/create';
import { documentChunks, documents } from '../server/db/schema';
import { lexemeFrequency } from '../server/engine/lexeme-stats';
import { retrieveChunks, retrieveEntries } from '../server/engine/retrieve';
import { policyPage } from '../server/ingest/testing';
import { SYSTEMS, TOPICS } from './fixtures';

const ENTRIES = Number(process.env.ENTRIES ?? 10_000);
const CHUNKS = Number(process.env.CHUNKS ?? 100_000);
const QUESTIONS = Number(process.env.QUESTIONS ?? 500);

function pct(ms: number[], p: number) {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-bench-ask-'));
  const database = await openDatabase({ kind: 'pglite', dataDir });
  const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'bench-secret-bench-secret-bench' });
  const log = pino({ level: 'silent' });
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
    const scope = { db: database.db, organizationId: me.user.organizationId, workspaceId: ws[0]?.id ?? '' };

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
    console.log(`Library: ${ENTRIES} entries imported in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    t0 = performance.now();
    const perDoc = 1000;
    for (let d = 0; d < CHUNKS / perDoc; d += 1) {
      const [doc] = await database.db
        .insert(documents)
        .values({
          organizationId: scope.organizationId,
          workspaceId: scope.workspaceId,
          storageKey: `org/${scope.organizationId}/uploads/bench-${d}`,
          originalName: `policy-${d}.pdf`,
          mimeType: 'application/pdf',
          kind: 'pdf',
          size: 1,
          status: 'ready',
          chunkCount: perDoc,
        })
        .returning({ id: documents.id });
      if (!doc) throw new Error('no document');
      const rows = Array.from({ length: perDoc }, (_, i) => {
        const page = policyPage(d * perDoc + i, d, 420);
        return {
          documentId: doc.id,
          organizationId: scope.organizationId,
          workspaceId: scope.workspaceId,
          ordinal: i,
          page: i + 1,
          section: page.heading,
          text: page.paragraphs.join(' ').slice(0, 1000),
        };
      });
      for (let i = 0; i < rows.length; i += 250)
        await database.db.insert(documentChunks).values(rows.slice(i, i + 250));
    }
    console.log(`Documents: ${CHUNKS} chunks written in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    // What the first ask would do anyway (engine/lexeme-stats.ts): gather the statistics retrieval plans with.
    t0 = performance.now();
    await lexemeFrequency(database.db, 'document_chunks');
    await lexemeFrequency(database.db, 'canonical_answers');
    console.log(`Statistics gathered (ANALYZE) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

    const questions = Array.from({ length: QUESTIONS }, (_, i) => {
      const topic = TOPICS[(i * 7) % TOPICS.length] ?? '';
      const system = SYSTEMS[(i * 3) % SYSTEMS.length] ?? '';
      const forms = [
        `Do you ${topic} for ${system}?`,
        `How often do you ${topic}?`,
        `Is it policy to ${topic} (ref ${i})?`,
      ];
      return forms[i % forms.length] ?? '';
    });
    // Warm up caches and JIT on other questions.
    for (let i = 0; i < 20; i += 1) await retrieveEntries(scope, `warm up question ${i} about backups`);

    // Asks first: the SQL-alone loop can outlast the server's keep-alive timeout, and a POST on a socket the
    // server has closed fails with ECONNRESET.
    const askMs: number[] = [];
    for (const q of questions) {
      const s = performance.now();
      const res = await fetch(`${base}/api/qa/ask`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ question: q }),
      });
      await res.json();
      askMs.push(performance.now() - s);
      if (!res.ok) throw new Error(`ask failed: ${res.status}`);
    }
    const sqlMs: number[] = [];
    const entryMs: number[] = [];
    const chunkMs: number[] = [];
    for (const q of questions) {
      const s = performance.now();
      await retrieveEntries(scope, q);
      const m = performance.now();
      await retrieveChunks(scope, q);
      const e = performance.now();
      entryMs.push(m - s);
      chunkMs.push(e - m);
      sqlMs.push(e - s);
    }
    console.log(
      `  library retrieval SQL   p50 ${pct(entryMs, 0.5).toFixed(1)} ms  p95 ${pct(entryMs, 0.95).toFixed(1)} ms`,
    );
    console.log(
      `  chunk retrieval SQL     p50 ${pct(chunkMs, 0.5).toFixed(1)} ms  p95 ${pct(chunkMs, 0.95).toFixed(1)} ms`,
    );
    console.log(`${QUESTIONS} distinct questions, one after another:`);
    console.log(
      `  POST /api/qa/ask over HTTP     p50 ${pct(askMs, 0.5).toFixed(1).padStart(6)} ms   p95 ${pct(askMs, 0.95).toFixed(1).padStart(6)} ms`,
    );
    console.log(
      `  retrieval SQL alone (entries + chunks)  p50 ${pct(sqlMs, 0.5).toFixed(1).padStart(6)} ms   p95 ${pct(sqlMs, 0.95).toFixed(1).padStart(6)} ms`,
    );
    console.log(
      `\nTarget: p95 ≤ 50 ms. Database: pglite (embedded); node ${process.version}; ${os.cpus().length} cores.`,
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
