import crypto from 'node:crypto';
import pino from 'pino';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createAnswer, createOrg } from './helpers/factories';
import { plantDocument, uploadDocument, uploadObject } from './helpers/documents';
import { importCsv } from './helpers/assessments';
import {
  assessmentBatches,
  assessmentQuestions,
  canonicalAnswers,
  documentChunks,
  documents,
  qaSessions,
} from '../server/db/schema';
import { inTransaction, type Tx } from '../server/db/client';
import { uploadKeyFromUrl } from '../server/storage/keys';
import { checkIntegrity, formatIntegrityReport, type IntegrityOptions } from '../server/ops/integrity';
import { startWorker } from '../server/worker/worker';
import { extractInThread } from '../server/ingest/thread';
import { waitUntil } from './helpers/wait';

// This file's app runs no worker: planted states must stay as planted. Its database is its own under test:pg too:
// on the shared one other files' workers would take planted pending work, and its worker theirs.
const log = pino({ level: 'silent' });

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ worker: false, privateDatabase: true });
});
afterAll(() => app.close());

type Org = Awaited<ReturnType<typeof createOrg>>;

/** The check, limited to the given organizations (earlier tests' rows share the database). */
function check(orgs: Org[], opts: IntegrityOptions & { files?: boolean } = {}) {
  return checkIntegrity(app.database.db, opts.files === false ? null : app.deps.storage, {
    organizationIds: orgs.map((o) => o.organizationId),
    ...opts,
  });
}
const checksOf = (problems: Array<{ check: string }>) => problems.map((p) => p.check);
const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);

/** Runs with the database's foreign keys switched off, to plant what they would refuse (a restore gone wrong). */
function withoutForeignKeys<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(app.database.db, async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    return fn(tx);
  });
}

async function plantChunks(doc: { id: string; organizationId: string; workspaceId: string }, ordinals: number[]) {
  await app.database.db.insert(documentChunks).values(
    ordinals.map((ordinal) => ({
      documentId: doc.id,
      organizationId: doc.organizationId,
      workspaceId: doc.workspaceId,
      ordinal,
      text: `Backups run daily (${ordinal}).`,
    })),
  );
}

/** An assessment with questions in the given states, straight into the tables (the API would settle it). */
async function plantBatch(
  org: Org,
  questions: Array<Partial<typeof assessmentQuestions.$inferInsert>>,
  batch: Partial<typeof assessmentBatches.$inferInsert> = {},
) {
  const [row] = await app.database.db
    .insert(assessmentBatches)
    .values({
      organizationId: org.organizationId,
      workspaceId: org.workspaceId,
      name: 'Planted',
      status: 'completed',
      totalQuestions: questions.length,
      metadata: { sourceFile: null, customerName: null, assessmentType: null },
      sourceFormat: 'csv',
      mapping: [],
      ...batch,
    })
    .returning();
  if (!row) throw new Error('no batch');
  const rows = await app.database.db
    .insert(assessmentQuestions)
    .values(
      questions.map((q, i) => ({
        batchId: row.id,
        organizationId: org.organizationId,
        workspaceId: org.workspaceId,
        orderIndex: i + 1,
        question: `Do you encrypt backups (${i + 1})?`,
        status: 'completed',
        answer: 'Yes.',
        answerCount: 1,
        ...q,
      })),
    )
    .returning({ id: assessmentQuestions.id });
  return { batch: row, questionIds: rows.map((r) => r.id) };
}

describe('a database with nothing wrong', () => {
  it('passes: extracted documents, an answered assessment, library entries and chats', async () => {
    const org = await createOrg(app);
    await createAnswer(app, org.admin, {
      question: 'Do you encrypt data at rest?',
      answer: 'Yes, every store is encrypted with AES-256.',
    });
    const session = await call(app, 'POST', '/api/qa/sessions', { as: org.admin, body: { title: 'Acme' } });
    expect(session.statusCode).toBe(201);
    const asked = await call(app, 'POST', '/api/qa/ask', {
      as: org.admin,
      body: { question: 'Do you encrypt data at rest?', sessionId: session.data.id },
    });
    expect(asked.statusCode).toBe(200);
    const doc = await uploadDocument(app, org.admin, Buffer.from('Backups run daily and are kept 35 days.'), 'b.txt');
    expect(doc.statusCode).toBe(201);
    const batch = await importCsv(app, org.admin, 'Question\nDo you encrypt data at rest?\nDo you back up daily?\n');
    const worker = startWorker({
      db: app.database.db,
      storage: app.deps.storage,
      log,
      extract: extractInThread,
      concurrency: 1,
      pollMs: 20,
      sweepEveryMs: 0,
    });
    try {
      await waitUntil(
        async () => {
          const [d] = await app.database.db.select().from(documents).where(eq(documents.id, doc.data.id));
          const [b] = await app.database.db.select().from(assessmentBatches).where(eq(assessmentBatches.id, batch.id));
          if (d?.status === 'processing' || b?.status === 'processing') throw new Error('still working');
        },
        { interval: 50 },
      );
    } finally {
      await worker.stop();
    }
    const problems = await check([org], { quiescent: true });
    expect(problems, formatIntegrityReport(problems)).toEqual([]);
    expect(formatIntegrityReport(problems)).toBe('integrity: ok');
  });
});

describe('document chunks', () => {
  it('reports chunks whose document is gone', async () => {
    const org = await createOrg(app);
    const orphanId = await withoutForeignKeys(async (tx) => {
      const [chunk] = await tx
        .insert(documentChunks)
        .values({
          documentId: crypto.randomUUID(),
          organizationId: org.organizationId,
          workspaceId: org.workspaceId,
          ordinal: 0,
          text: 'A chunk of a deleted document.',
        })
        .returning({ id: documentChunks.id });
      return chunk?.id;
    });
    try {
      const problems = await check([org], { files: false });
      expect(problems).toEqual([
        expect.objectContaining({ check: 'chunk_without_document', count: 1, ids: [orphanId] }),
      ]);
      expect(problems[0]?.message).toMatch(/^1 document chunk belongs to no document/);
    } finally {
      await app.database.db.delete(documentChunks).where(eq(documentChunks.id, orphanId ?? ''));
    }
  });

  it('reports chunks of a document that is not ready, and a ready document whose chunks are missing or extra', async () => {
    const org = await createOrg(app);
    const failed = await plantDocument(app, org, { status: 'failed', error: 'No text could be extracted.' });
    await plantChunks(failed, [0, 1]);
    const short = await plantDocument(app, org, { chunkCount: 3 });
    await plantChunks(short, [0, 1]);
    const gap = await plantDocument(app, org, { chunkCount: 2 });
    await plantChunks(gap, [0, 2]);
    const fine = await plantDocument(app, org, { chunkCount: 2 });
    await plantChunks(fine, [0, 1]);
    const problems = await check([org], { files: false });
    expect(problems).toEqual([
      expect.objectContaining({ check: 'chunks_of_unready_document', count: 1, ids: [failed.id] }),
      expect.objectContaining({ check: 'chunk_count_mismatch', count: 2 }),
    ]);
    expect(problems[1]?.ids.sort()).toEqual([short.id, gap.id].sort());
  });

  it("reports chunks filed under another organization than their document's", async () => {
    const [a, b] = [await createOrg(app), await createOrg(app)];
    const doc = await plantDocument(app, a, { chunkCount: 1 });
    await plantChunks({ ...doc, organizationId: b.organizationId, workspaceId: b.workspaceId }, [0]);
    for (const scope of [[a], [b]]) {
      const problems = await check(scope, { files: false });
      expect(checksOf(problems)).toContain('chunk_tenant_mismatch');
    }
  });
});

describe('work in flight', () => {
  it('reports a document whose claim went stale, and any processing document once all should be done', async () => {
    const org = await createOrg(app);
    const stale = await plantDocument(app, org, { status: 'processing', claimedAt: secondsAgo(10), attempts: 1 });
    const live = await plantDocument(app, org, { status: 'processing', claimedAt: new Date(), attempts: 1 });
    expect(await check([org], { files: false })).toEqual([]);
    expect(await check([org], { files: false, documentClaimMs: 5000 })).toEqual([
      expect.objectContaining({ check: 'document_stuck', ids: [stale.id] }),
    ]);
    const quiet = await check([org], { files: false, quiescent: true });
    expect(quiet).toEqual([expect.objectContaining({ check: 'document_stuck', count: 2 })]);
    expect(quiet[0]?.ids.sort()).toEqual([stale.id, live.id].sort());
  });

  it('reports a question stuck in processing with no live claim, and any processing question once all should be done', async () => {
    const org = await createOrg(app);
    const {
      questionIds: [stale, unclaimed, live],
    } = await plantBatch(
      org,
      [
        { status: 'processing', claimedAt: secondsAgo(10), answer: null, answerCount: 0 },
        { status: 'processing', claimedAt: null, answer: null, answerCount: 0 },
        { status: 'processing', claimedAt: new Date(), answer: null, answerCount: 0 },
      ],
      { status: 'processing' },
    );
    const found = await check([org], { files: false, questionClaimMs: 5000 });
    expect(found).toEqual([expect.objectContaining({ check: 'question_stuck', count: 2 })]);
    expect(found[0]?.ids.sort()).toEqual([stale, unclaimed].sort());
    const quiet = await check([org], { files: false, quiescent: true });
    expect(quiet).toEqual([expect.objectContaining({ check: 'question_stuck', count: 3 })]);
    expect(quiet[0]?.ids).toContain(live);
  });

  it('once all should be done, reports questions still waiting for an answer', async () => {
    const org = await createOrg(app);
    const batch = await importCsv(app, org.admin, 'Question\nDo you back up daily?\n');
    expect(await check([org], { files: false })).toEqual([]);
    const quiet = await check([org], { files: false, quiescent: true });
    expect(quiet).toEqual([expect.objectContaining({ check: 'question_waiting', count: 1 })]);
    await app.database.db.delete(assessmentBatches).where(eq(assessmentBatches.id, batch.id));
  });
});

describe('assessments', () => {
  it('reports a question count that disagrees with the stored questions', async () => {
    const org = await createOrg(app);
    const { batch } = await plantBatch(org, [{}, {}], { totalQuestions: 5 });
    expect(await check([org], { files: false })).toEqual([
      expect.objectContaining({ check: 'batch_count_mismatch', ids: [batch.id] }),
    ]);
  });

  it('reports a status that disagrees with the questions: done with work left, processing with none, failed with answers', async () => {
    const org = await createOrg(app);
    const doneTooSoon = await plantBatch(org, [{}, { status: 'processing', claimedAt: new Date(), answer: null }]);
    const neverSettled = await plantBatch(org, [{}, {}], { status: 'processing' });
    const failedButAnswered = await plantBatch(org, [{}, { status: 'failed', answer: null }], { status: 'failed' });
    const completedNoneAnswered = await plantBatch(org, [{ status: 'failed', answer: null }]);
    await plantBatch(org, [{}, { status: 'completed', reviewState: 'approved' }, { status: 'failed', answer: null }]);
    await plantBatch(org, [{ status: 'failed', answer: null }], { status: 'failed' });
    const problems = await check([org], { files: false });
    expect(problems).toEqual([expect.objectContaining({ check: 'batch_status_mismatch', count: 4 })]);
    expect(problems[0]?.ids.sort()).toEqual(
      [doneTooSoon, neverSettled, failedButAnswered, completedNoneAnswered].map((p) => p.batch.id).sort(),
    );
  });

  it("reports questions filed under another workspace than their assessment's", async () => {
    const [a, b] = [await createOrg(app), await createOrg(app)];
    const {
      questionIds: [, moved],
    } = await plantBatch(a, [{}, { organizationId: b.organizationId, workspaceId: b.workspaceId }]);
    const problems = await check([b], { files: false });
    expect(problems).toEqual([expect.objectContaining({ check: 'question_tenant_mismatch', ids: [moved] })]);
  });
});

describe('workspaces and tenants', () => {
  it("reports library entries in another organization's workspace and chats in a workspace that is gone", async () => {
    const [a, b] = [await createOrg(app), await createOrg(app)];
    const [entry] = await app.database.db
      .insert(canonicalAnswers)
      .values({
        organizationId: a.organizationId,
        workspaceId: b.workspaceId,
        question: 'Do you rotate keys?',
        questionNorm: `do you rotate keys ${a.organizationId}`,
        answer: 'Yes, every year.',
        status: 'approved',
      })
      .returning({ id: canonicalAnswers.id });
    const chatId = await withoutForeignKeys(async (tx) => {
      const [chat] = await tx
        .insert(qaSessions)
        .values({
          organizationId: a.organizationId,
          workspaceId: crypto.randomUUID(),
          userId: a.admin.id,
          title: 'Lost chat',
        })
        .returning({ id: qaSessions.id });
      return chat?.id;
    });
    try {
      const problems = await check([a], { files: false });
      expect(problems).toEqual([
        expect.objectContaining({ check: 'workspace_mismatch', ids: [entry?.id] }),
        expect.objectContaining({ check: 'workspace_mismatch', ids: [chatId] }),
      ]);
      expect(problems[0]?.message).toContain('(canonical_answers)');
      expect(problems[1]?.message).toMatch(/^1 chat points to a workspace that is missing/);
    } finally {
      await app.database.db.delete(qaSessions).where(eq(qaSessions.id, chatId ?? ''));
    }
  });
});

describe('stored files', () => {
  it('reports an upload never registered once past the grace period, or at once when all should be done', async () => {
    const org = await createOrg(app);
    const url = await uploadObject(app, org.admin, Buffer.from('never registered'));
    const key = uploadKeyFromUrl(url)?.key;
    expect(await check([org])).toEqual([]);
    expect(await check([org], { quiescent: true })).toEqual([
      expect.objectContaining({ check: 'orphaned_upload', count: 1, ids: [key] }),
    ]);
    expect(await check([org], { uploadGraceMs: 0 })).toEqual([expect.objectContaining({ check: 'orphaned_upload' })]);
  });

  it('reports a document whose file is gone', async () => {
    const org = await createOrg(app);
    const doc = await uploadDocument(app, org.admin, Buffer.from('Backups run daily.'), 'b.txt');
    const [row] = await app.database.db.select().from(documents).where(eq(documents.id, doc.data.id));
    await app.deps.storage.delete(row?.storageKey ?? '');
    const problems = await check([org]);
    expect(problems.find((p) => p.check === 'missing_object')).toMatchObject({ count: 1, ids: [doc.data.id] });
  });
});
