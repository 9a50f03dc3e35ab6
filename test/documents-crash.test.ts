import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { createOrg } from './helpers/factories';
import { plantDocument, settledDocument, uploadDocument } from './helpers/documents';
import { freePort, startServer } from './helpers/processes';
import {
  crashFixtures,
  documentState,
  extractionsSettled,
  filesUnder,
  freshChunkCounts,
  midExtraction,
  signUpOverHttp,
  startWorkerProcess,
  uploadOverHttp,
  type CrashFixture,
} from './helpers/crash';
import { openDatabase, type Db } from '../server/db/client';
import { documents } from '../server/db/schema';
import { LocalStorage } from '../server/storage/local';
import type { ObjectStorage } from '../server/storage/types';
import { checkIntegrity, formatIntegrityReport } from '../server/ops/integrity';
import { extractDocument } from '../server/ingest/pipeline';
import { startWorker } from '../server/worker/worker';
import { failExhaustedDocuments, renewDocumentClaim } from '../server/worker/claim';
import { GAVE_UP, MAX_ATTEMPTS, type Extract } from '../server/worker/process-document';
import { waitUntil } from './helpers/wait';

const testDb = inject('testDb');
const log = pino({ level: 'silent' });

// The in-process app (for the PostgreSQL test's uploads and the claim tests) runs no worker of its own. Its database
// is its own under test:pg too: the workers here take over claims older than a second or two, which on the shared
// database would be other files' documents still being extracted, and other files' workers would take these.
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ worker: false, privateDatabase: true });
});
afterAll(() => app.close());

/**
 * What "finished exactly once" means for a set of uploaded documents, checked in the database: each ended as its
 * fixture says, a ready one holds exactly the chunks a fresh extraction makes (no duplicates, no gaps), nothing was
 * tried more than once beyond the attempt the kill cut short, and no file is left without its row.
 */
async function expectExtractedExactlyOnce(
  db: Db,
  uploaded: Map<string, CrashFixture>,
  fresh: Map<string, number>,
): Promise<Awaited<ReturnType<typeof documentState>>> {
  const state = await documentState(db, [...uploaded.keys()]);
  expect(state).toHaveLength(uploaded.size);
  for (const doc of state) {
    const fixture = uploaded.get(doc.id);
    expect(doc.status, `${doc.originalName}: ${doc.error}`).toBe(fixture?.expected);
    expect(doc.claimedAt).toBeNull();
    expect(doc.attempts, doc.originalName).toBeLessThanOrEqual(2);
    if (doc.status === 'failed') {
      expect(doc.error).toContain('password-protected');
      expect(doc.chunks).toBe(0);
      continue;
    }
    const expected = fresh.get(doc.originalName);
    expect({ name: doc.originalName, stored: doc.chunks, counted: doc.chunkCount }).toEqual({
      name: doc.originalName,
      stored: expected,
      counted: expected,
    });
    expect(doc.distinctOrdinals).toBe(doc.chunks);
    expect(doc.maxOrdinal).toBe(doc.chunks - 1);
  }
  return state;
}

describe.runIf(testDb.kind === 'pglite')('`npm start` killed with SIGKILL while documents are extracted', () => {
  it('on restart finishes every document exactly once, orphans no upload, and passes the integrity check', async () => {
    const fixtures = await crashFixtures(30);
    const fresh = await freshChunkCounts(fixtures);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-doc-crash-'));
    const port = await freePort();
    const secret = 'crash-secret-crash-secret-crash';
    const env = { DATA_DIR: dataDir, PORT: String(port), SESSION_SECRET: secret, WORKER_CONCURRENCY: '2' };
    const base = `http://127.0.0.1:${port}`;
    const uploaded = new Map<string, CrashFixture>();
    let server = startServer(env);
    let killedWhile = { settled: 0, processing: 0 };
    try {
      expect(await server.ready, server.output()).toBe('ready');
      const cookie = await signUpOverHttp(base, 'doccrash');
      // Several at once, as a person dropping a folder would: the worker's backlog then builds up however fast one
      // upload is compared with one extraction, and the kill below finds documents waiting and in progress.
      let next = 0;
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          for (let i = next++; i < fixtures.length; i = next++) {
            const f = fixtures[i];
            if (f) uploaded.set(await uploadOverHttp(base, cookie, f), f);
          }
        }),
      );
      const statuses = async () =>
        ((await (await fetch(`${base}/api/documents`, { headers: { cookie } })).json()) as Array<{ status: string }>)
          .map((d) => d.status)
          .reduce(
            (n, s) => (s === 'processing' ? { ...n, processing: n.processing + 1 } : { ...n, settled: n.settled + 1 }),
            { settled: 0, processing: 0 },
          );
      killedWhile = await midExtraction(statuses);
      server.child.kill('SIGKILL');
      await new Promise((r) => server.child.once('exit', r));

      server = startServer(env);
      expect(await server.ready, server.output()).toBe('ready');
      await extractionsSettled(statuses);
    } finally {
      await server.stop();
    }
    expect(killedWhile.processing).toBeGreaterThan(0);

    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const state = await expectExtractedExactlyOnce(database.db, uploaded, fresh);
      // The documents whose extraction the kill cut short were taken up again at restart, once.
      expect(state.filter((d) => d.attempts === 2).length, 'no extraction was under way at the kill').toBeGreaterThan(
        0,
      );
      const objectsDir = path.join(dataDir, 'objects');
      expect(filesUnder(objectsDir)).toEqual(state.map((d) => d.storageKey).sort());
      const storage: ObjectStorage = new LocalStorage(objectsDir, base, secret);
      const problems = await checkIntegrity(database.db, storage, { quiescent: true });
      expect(problems, formatIntegrityReport(problems)).toEqual([]);
    } finally {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe.runIf(testDb.kind === 'postgres')('a `npm run worker` process killed with SIGKILL while extracting', () => {
  it('the other worker takes over its documents; every document finishes exactly once and integrity holds', async () => {
    const databaseUrl = app.database.url;
    if (!databaseUrl) throw new Error('the app has no PostgreSQL database');
    const fixtures = await crashFixtures(30);
    const fresh = await freshChunkCounts(fixtures);
    const org = await createOrg(app);
    const uploaded = new Map<string, CrashFixture>();
    for (const f of fixtures) {
      const res = await uploadDocument(app, org.admin, f.bytes, f.name);
      expect(res.statusCode, res.body).toBe(201);
      uploaded.set(res.data.id as string, f);
    }
    const ids = [...uploaded.keys()];
    const counts = async () => {
      const rows = await app.database.db
        .select({ status: documents.status })
        .from(documents)
        .where(inArray(documents.id, ids));
      return {
        settled: rows.filter((r) => r.status !== 'processing').length,
        processing: rows.filter((r) => r.status === 'processing').length,
      };
    };
    // Both share the app's object store and database, as two worker machines share S3 and PostgreSQL.
    const env = {
      DATABASE_URL: databaseUrl,
      STORAGE_DIR: inject('objectsDir'),
      SESSION_SECRET: 'worker-secret-worker-secret-worker',
      WORKER_CONCURRENCY: '2',
      WORKER_DOCUMENT_CLAIM_SECONDS: '2',
    };
    const victim = startWorkerProcess(env);
    const survivor = startWorkerProcess(env);
    try {
      await midExtraction(counts);
      await victim.kill('SIGKILL');
      await extractionsSettled(counts);
    } finally {
      await victim.kill('SIGKILL');
      await survivor.kill('SIGTERM');
    }
    const state = await expectExtractedExactlyOnce(app.database.db, uploaded, fresh);
    expect(state.filter((d) => d.attempts === 2).length, 'the victim had no extraction under way').toBeGreaterThan(0);
    const prefix = `org/${org.organizationId}/`;
    expect(filesUnder(path.join(inject('objectsDir'), prefix)).map((k) => `${prefix}${k}`)).toEqual(
      state.map((d) => d.storageKey).sort(),
    );
    const problems = await checkIntegrity(app.database.db, app.deps.storage, {
      organizationIds: [org.organizationId],
      quiescent: true,
    });
    expect(problems, `${formatIntegrityReport(problems)}\n${survivor.output()}`).toEqual([]);
  }, 300_000);
});

describe('a live worker keeps its document claim', () => {
  it('renews a claim it holds, and not one taken over since', async () => {
    const org = await createOrg(app);
    // A claim made just now: no worker takes it up for minutes.
    const claimedAt = new Date();
    const doc = await plantDocument(app, org, {
      originalName: 'p.txt',
      size: 5,
      status: 'processing',
      claimedAt,
      attempts: 1,
    });
    const renewed = await renewDocumentClaim(app.database.db, doc.id, claimedAt);
    expect(renewed?.getTime()).toBeGreaterThanOrEqual(claimedAt.getTime());
    if (!renewed) return;
    expect(await renewDocumentClaim(app.database.db, doc.id, new Date(claimedAt.getTime() - 1))).toBeNull();
    const again = await renewDocumentClaim(app.database.db, doc.id, renewed);
    expect(again).not.toBeNull();
    await app.database.db.delete(documents).where(eq(documents.id, doc.id));
    expect(await renewDocumentClaim(app.database.db, doc.id, again ?? renewed)).toBeNull();
  });

  it('a file extracted for longer than the claim timeout is not taken over by another worker', async () => {
    const org = await createOrg(app);
    const doc = await uploadDocument(app, org.admin, Buffer.from('Backups run daily.'), 'b.txt');
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    let extractions = 0;
    const slow: Extract = async (bytes, name) => {
      extractions += 1;
      await gate;
      return extractDocument(bytes, name);
    };
    const worker = () =>
      startWorker({
        db: app.database.db,
        storage: app.deps.storage,
        log,
        extract: slow,
        concurrency: 1,
        pollMs: 10,
        staleMs: 1500,
        sweepEveryMs: 0,
      });
    const [a, b] = [worker(), worker()];
    try {
      // Nine different claim times, a heartbeat (375 ms) apart: the timeout has passed twice over meanwhile.
      const seen = new Set<number>();
      const outcome = await waitUntil(
        async () => {
          if (extractions > 1) return 'taken over';
          const [row] = await app.database.db.select().from(documents).where(eq(documents.id, doc.data.id));
          if (row?.claimedAt) seen.add(row.claimedAt.getTime());
          if (seen.size < 9) throw new Error(`claim renewed ${seen.size} times so far`);
          return 'kept';
        },
        { interval: 10 },
      );
      expect(outcome).toBe('kept');
      expect(extractions).toBe(1);
      open();
      expect(await settledDocument(app, org.admin, doc.data.id)).toMatchObject({ status: 'ready' });
    } finally {
      open();
      await Promise.all([a.stop(), b.stop()]);
    }
    const [row] = await app.database.db.select().from(documents).where(eq(documents.id, doc.data.id));
    expect(row).toMatchObject({ attempts: 1, claimedAt: null });
    expect(extractions).toBe(1);
  });

  it('fails a document whose worker died on its last allowed try, instead of taking it up forever', async () => {
    const org = await createOrg(app);
    const doc = await plantDocument(app, org, {
      originalName: 'poison.pdf',
      mimeType: 'application/pdf',
      kind: 'pdf',
      size: 5,
      status: 'processing',
      claimedAt: new Date(Date.now() - 3600_000),
      attempts: MAX_ATTEMPTS,
    });
    await failExhaustedDocuments(app.database.db, 1800_000, MAX_ATTEMPTS, GAVE_UP);
    const [row] = await app.database.db.select().from(documents).where(eq(documents.id, doc.id));
    expect(row).toMatchObject({ status: 'failed', error: GAVE_UP, claimedAt: null, attempts: MAX_ATTEMPTS });
  });
});
