import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg } from './helpers/factories';
import { uploadDocument } from './helpers/documents';
import { eq } from 'drizzle-orm';
import { documents } from '../server/db/schema';
import { claimDocuments, failExhaustedDocuments } from '../server/worker/claim';
import { releaseClaimsOfPreviousRun } from '../server/worker/claim-questions';
import { GAVE_UP, MAX_ATTEMPTS, processDocument } from '../server/worker/process-document';
import { ExtractionError } from '../server/ingest/types';
import { sweepOrphanUploads } from '../server/worker/sweep';
import { uploadObject } from './helpers/documents';

// This file's app runs no worker: the tests drive claims themselves, on a database of its own under test:pg too.
// On the shared one they would claim other files' waiting documents and hold them for ten minutes, and other
// files' workers would take these.
const log = pino({ level: 'silent' });
const tenMinutes = 10 * 60_000;

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ worker: false, privateDatabase: true });
});
afterAll(() => app.close());

async function waitingDocuments(n: number) {
  const org = await createOrg(app);
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const res = await uploadDocument(
      app,
      org.admin,
      Buffer.from(`Policy number ${i}: backups run daily.`),
      `p${i}.txt`,
    );
    ids.push(res.data.id);
  }
  return { org, ids };
}

describe('claiming documents (ARCHITECTURE §7)', () => {
  it('never gives the same document to two claims, even when they race', async () => {
    const { ids } = await waitingDocuments(6);
    const claims = await Promise.all([1, 2, 3].map(() => claimDocuments(app.database.db, 6, tenMinutes)));
    const mine = claims.flat();
    expect(new Set(mine.map((c) => c.id)).size).toBe(mine.length);
    expect(mine.map((c) => c.id).sort()).toEqual([...ids].sort());
  });

  it('takes over a stale claim, and drops the late result of the claim it replaced', async () => {
    const { org, ids } = await waitingDocuments(1);
    const [first] = await claimDocuments(app.database.db, 1, tenMinutes);
    expect(first?.id).toBe(ids[0]);
    expect(await claimDocuments(app.database.db, 1, tenMinutes)).toEqual([]);
    // With no grace period every claimed document is stale, earlier tests' ones included: pick ours.
    const second = (await claimDocuments(app.database.db, 100, 0)).find((c) => c.id === ids[0]);
    expect(second).toMatchObject({ id: ids[0], attempts: 2 });
    if (!first || !second) throw new Error('expected both claims');

    const extract = async () => ({ pageCount: null, chunks: [{ ordinal: 0, page: null, section: null, text: 'x' }] });
    const deps = { db: app.database.db, storage: app.deps.storage, log, extract };
    expect(await processDocument(deps, first)).toBe('lost');
    expect(await processDocument(deps, second)).toBe('ready');
    const doc = await call(app, 'GET', `/api/documents/${ids[0]}`, { as: org.admin });
    expect(doc.data).toMatchObject({ status: 'ready', extractedChunks: 1 });
  });

  it('retries an outage, then fails with a sentence; a bad file fails at once', async () => {
    const { org, ids } = await waitingDocuments(2);
    const outage = async () => {
      throw new Error('storage unreachable');
    };
    const deps = { db: app.database.db, storage: app.deps.storage, log, extract: outage };
    const outcomes: string[] = [];
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
      const [doc] = (await claimDocuments(app.database.db, 100, tenMinutes)).filter((c) => c.id === ids[0]);
      if (!doc) throw new Error('expected a claim');
      outcomes.push(await processDocument(deps, doc));
    }
    expect(outcomes).toEqual([...Array(MAX_ATTEMPTS - 1).fill('retry'), 'failed']);
    const failed = await call(app, 'GET', `/api/documents/${ids[0]}`, { as: org.admin });
    expect(failed.data).toMatchObject({ status: 'failed', error: expect.stringContaining('Processing failed') });

    const badFile = async () => {
      throw new ExtractionError('no_text', 'No text could be extracted from this file.');
    };
    const [doc] = (await claimDocuments(app.database.db, 100, 0)).filter((c) => c.id === ids[1]);
    if (!doc) throw new Error('expected a claim');
    expect(await processDocument({ ...deps, extract: badFile }, doc)).toBe('failed');
    const other = await call(app, 'GET', `/api/documents/${ids[1]}`, { as: org.admin });
    expect(other.data).toMatchObject({ status: 'failed', error: 'No text could be extracted from this file.' });
  });
});

describe('an embedded restart', () => {
  it('resumes what the previous run had claimed, but not a document it already tried the most times', async () => {
    const { ids } = await waitingDocuments(2);
    const [tried, fresh] = ids as [string, string];
    await claimDocuments(app.database.db, 100, tenMinutes);
    await app.database.db.update(documents).set({ attempts: MAX_ATTEMPTS }).where(eq(documents.id, tried));

    await releaseClaimsOfPreviousRun(app.database.db, { questions: 3, documents: MAX_ATTEMPTS });
    const claimOf = async (id: string) =>
      (await app.database.db.select().from(documents).where(eq(documents.id, id)))[0];
    expect((await claimOf(fresh))?.claimedAt).toBeNull();
    expect((await claimOf(tried))?.claimedAt).not.toBeNull();

    // Once its claim is stale, the worker's idle check fails it with a sentence instead of trying a fourth time.
    expect(await claimDocuments(app.database.db, 100, 0, MAX_ATTEMPTS)).toEqual([
      expect.objectContaining({ id: fresh }),
    ]);
    expect(await failExhaustedDocuments(app.database.db, 0, MAX_ATTEMPTS, GAVE_UP)).toContain(tried);
    expect(await claimOf(tried)).toMatchObject({ status: 'failed', error: GAVE_UP });
  });
});

describe('abandoned uploads', () => {
  it('are removed once old; registered documents keep their files', async () => {
    const { org, ids } = await waitingDocuments(1);
    const abandoned = await uploadObject(app, org.admin, Buffer.from('never registered'));
    const prefix = `org/${org.organizationId}/`;
    expect(await sweepOrphanUploads(app.database.db, app.deps.storage, { prefix })).toEqual([]);
    const removed = await sweepOrphanUploads(app.database.db, app.deps.storage, { prefix, olderThanMs: 0 });
    expect(removed).toHaveLength(1);
    expect(abandoned).toContain(removed[0]);
    const dl = await app.inject({
      method: 'GET',
      url: `/api/documents/${ids[0]}/download`,
      headers: { cookie: org.admin.cookie },
    });
    expect(dl.statusCode).toBe(200);
  });

  it('take the half-written files of a killed upload with them, and step over files that are not uploads', async () => {
    const { org } = await waitingDocuments(1);
    const prefix = `org/${org.organizationId}/`;
    const dir = path.join(app.config.storage.localDir ?? path.join(app.config.dataDir, 'objects'), prefix);
    fs.mkdirSync(dir, { recursive: true });
    const partial = path.join(dir, 'k.12345.1700000000000.part');
    const stray = path.join(dir, 'notes.txt');
    fs.writeFileSync(partial, 'half an upload');
    fs.writeFileSync(stray, 'put here by hand');
    const abandoned = await uploadObject(app, org.admin, Buffer.from('never registered'));

    const removed = await sweepOrphanUploads(app.database.db, app.deps.storage, { prefix, olderThanMs: 0 });
    expect(fs.existsSync(partial)).toBe(false);
    expect(fs.existsSync(stray)).toBe(true);
    expect(removed.some((k) => abandoned.includes(k))).toBe(true);
  });
});
