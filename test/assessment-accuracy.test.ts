import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccuracyView } from '../common/schemas/accuracy';
import type { AssessmentDetail, AssessmentQuestionView } from '../common/schemas/assessments';
import { assessmentQuestions, reviewOutcomes } from '../server/db/schema';
import { editDistance } from '../server/modules/assessments/outcome-rules';
import { createTestApp, type TestApp } from './helpers/app';
import { plantOutcomes, type PlantedOutcome } from './helpers/outcomes';
import { call, type Session } from './helpers/api';
import { createAnswer, createTenant, type Tenant } from './helpers/factories';
import { importCsv, waitForBatch } from './helpers/assessments';
import { waitUntil } from './helpers/wait';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const MFA_Q = 'Is multi-factor authentication required for all employee access to production systems?';
const MFA_A = 'Yes. Every employee signs in through Okta with phishing-resistant MFA (FIDO2 security keys).';
const ENC_Q = 'Is customer data encrypted at rest in every production datastore?';
const ENC_A = 'Yes. All production datastores use AES-256 encryption at rest with keys held in AWS KMS.';
const DRONE_Q = 'Does your company operate delivery drones over customer sites?';
const PERSON_A = 'No. We do not operate drones of any kind, and none of our suppliers does for us.';

/** A tenant whose library answers MFA_Q and ENC_Q verbatim, and an assessment of those two and DRONE_Q (unknown). */
async function reviewedAssessment() {
  const t = await createTenant(app);
  const mfa = await createAnswer(app, t.users.admin, { question: MFA_Q, answer: MFA_A, tags: ['mfa'] });
  await createAnswer(app, t.users.admin, { question: ENC_Q, answer: ENC_A, tags: ['encryption'] });
  const csv = `Category,Question\nAccess,"${MFA_Q}"\nData,"${ENC_Q}"\nOps,"${DRONE_Q}"\n`;
  const created = await importCsv(app, t.users.contributor, csv, 'Acme review');
  const d = (await waitForBatch(app, t.users.contributor, created.id)) as unknown as AssessmentDetail;
  const [q1, q2, q3] = d.questions as [AssessmentQuestionView, AssessmentQuestionView, AssessmentQuestionView];
  return { t, batchId: created.id, q1, q2, q3, mfaEntryId: mfa.id };
}

const questionUrl = (batchId: string, qid: string) => `/api/assessments/${batchId}/questions/${qid}`;

async function act(as: Session, batchId: string, qid: string, action: string) {
  const res = await call(app, 'POST', `${questionUrl(batchId, qid)}/review`, { as, body: { action } });
  expect(res.statusCode, res.body).toBe(200);
}

async function write(as: Session, batchId: string, qid: string, answer: string) {
  const res = await call(app, 'PUT', questionUrl(batchId, qid), { as, body: { answer } });
  expect(res.statusCode, res.body).toBe(200);
  return res.data as AssessmentQuestionView;
}

async function bulk(as: Session, batchId: string, body: unknown) {
  const res = await call(app, 'POST', `/api/assessments/${batchId}/review`, { as, body });
  expect(res.statusCode, res.body).toBe(200);
  return res.data as { updated: number };
}

async function outcomeOf(questionId: string) {
  const rows = await app.database.db.select().from(reviewOutcomes).where(eq(reviewOutcomes.questionId, questionId));
  expect(rows.length).toBeLessThanOrEqual(1);
  return rows[0];
}

async function accuracy(as: Session, query = '') {
  return call(app, 'GET', `/api/admin/accuracy${query}`, { as });
}

describe('the outcome of each review path', () => {
  it('approving the machine’s answer as written records it unchanged, with what the engine said of it', async () => {
    const { t, batchId, q1, mfaEntryId } = await reviewedAssessment();
    await act(t.users.manager, batchId, q1.id, 'approve');
    expect(await outcomeOf(q1.id)).toMatchObject({
      outcome: 'unchanged',
      editDistance: 0,
      confidence: q1.confidence,
      answerType: 'canonical',
      libraryEntryId: mfaEntryId,
      documentIds: [],
      reviewedBy: t.users.manager.id,
      batchId,
      workspaceId: t.workspaceId,
      organizationId: t.organizationId,
    });
    expect((await outcomeOf(q1.id))?.topic).not.toBe('other');
  });

  it('keeps the machine’s answer through a person’s edit, and records the edit with its distance', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    const edited = `${MFA_A} Reviewed every year.`;
    const written = await write(t.users.contributor, batchId, q1.id, edited);
    expect(written).toMatchObject({ answerOrigin: 'person', confidence: null });
    const [row] = await app.database.db.select().from(assessmentQuestions).where(eq(assessmentQuestions.id, q1.id));
    expect(row).toMatchObject({
      machineAnswer: MFA_A,
      machineAnswerType: 'canonical',
      machineConfidence: q1.confidence,
    });
    await act(t.users.manager, batchId, q1.id, 'approve');
    const outcome = await outcomeOf(q1.id);
    expect(outcome).toMatchObject({ outcome: 'edited', confidence: q1.confidence, answerType: 'canonical' });
    expect(outcome?.editDistance).toBeCloseTo(editDistance(MFA_A, edited), 5);
  });

  it('records a rewrite as replaced, and a person’s answer to a Needs Review question as replaced of type unknown', async () => {
    const { t, batchId, q2, q3 } = await reviewedAssessment();
    await write(t.users.contributor, batchId, q2.id, 'No. Only the billing database is encrypted, with a key in code.');
    await act(t.users.manager, batchId, q2.id, 'approve');
    expect(await outcomeOf(q2.id)).toMatchObject({ outcome: 'replaced' });
    expect((await outcomeOf(q2.id))?.editDistance).toBeGreaterThan(0.5);

    await write(t.users.contributor, batchId, q3.id, PERSON_A);
    await act(t.users.manager, batchId, q3.id, 'approve');
    expect(await outcomeOf(q3.id)).toMatchObject({ outcome: 'replaced', answerType: 'unknown', confidence: 0 });
  });

  it('records not applicable, and keeps the row through a reopen until the next end replaces it', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    await act(t.users.manager, batchId, q1.id, 'not_applicable');
    expect(await outcomeOf(q1.id)).toMatchObject({ outcome: 'not_applicable', editDistance: null });
    await act(t.users.manager, batchId, q1.id, 'reopen');
    expect(await outcomeOf(q1.id)).toMatchObject({ outcome: 'not_applicable' });
    await act(t.users.manager, batchId, q1.id, 'approve');
    expect(await outcomeOf(q1.id)).toMatchObject({ outcome: 'unchanged' });
    // Sending an approved answer back ends nothing: its outcome stays.
    await act(t.users.manager, batchId, q1.id, 'return');
    expect(await outcomeOf(q1.id)).toMatchObject({ outcome: 'unchanged' });
  });

  it('records a regenerate, which the new answer’s own review then replaces', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    const res = await call(app, 'POST', `${questionUrl(batchId, q1.id)}/regenerate`, { as: t.users.contributor });
    expect(res.statusCode, res.body).toBe(200);
    expect(await outcomeOf(q1.id)).toMatchObject({ outcome: 'regenerated', reviewedBy: t.users.contributor.id });
    await waitForBatch(app, t.users.contributor, batchId);
    await waitUntil(async () => {
      const [row] = await app.database.db.select().from(assessmentQuestions).where(eq(assessmentQuestions.id, q1.id));
      if (row?.status !== 'completed') throw new Error('not answered again yet');
    });
    await act(t.users.manager, batchId, q1.id, 'approve');
    expect(await outcomeOf(q1.id)).toMatchObject({ outcome: 'unchanged' });
  });

  it('records a bulk accept and a bulk approve, and a bulk not applicable', async () => {
    const { t, batchId, q1, q2, q3 } = await reviewedAssessment();
    expect(await bulk(t.users.manager, batchId, { action: 'accept', minConfidence: 0 })).toEqual({ updated: 2 });
    expect((await outcomeOf(q1.id))?.outcome).toBe('unchanged');
    expect((await outcomeOf(q2.id))?.outcome).toBe('unchanged');
    // A Needs Review answer is not accepted, so its review has not ended.
    expect(await outcomeOf(q3.id)).toBeUndefined();

    const edited = await write(t.users.contributor, batchId, q2.id, `${ENC_A} Backups too.`);
    const approved = await bulk(t.users.manager, batchId, {
      action: 'approve',
      selection: { questionIds: [q2.id] },
      answeredAt: { [q2.id]: edited.answeredAt },
    });
    expect(approved).toEqual({ updated: 1, skippedChanged: 0 });
    expect((await outcomeOf(q2.id))?.outcome).toBe('edited');

    await bulk(t.users.manager, batchId, { action: 'not_applicable', selection: { questionIds: [q3.id] } });
    expect(await outcomeOf(q3.id)).toMatchObject({ outcome: 'not_applicable', answerType: 'unknown' });
  });

  it('records nothing for a question the engine never answered', async () => {
    const { t, batchId, q3 } = await reviewedAssessment();
    await app.database.db
      .update(assessmentQuestions)
      .set({ machineAnswer: null, machineAnswerType: null, machineConfidence: null, machineSources: null })
      .where(eq(assessmentQuestions.id, q3.id));
    await write(t.users.contributor, batchId, q3.id, PERSON_A);
    await act(t.users.manager, batchId, q3.id, 'approve');
    expect(await outcomeOf(q3.id)).toBeUndefined();
  });
});

/** Outcomes of `t`'s workspace written directly (helpers/outcomes.ts). */
const seedOutcomes = (t: Tenant, seeds: readonly PlantedOutcome[]) => plantOutcomes(app, t, seeds);

describe('GET /api/admin/accuracy', () => {
  it('counts outcomes per band, type, topic and Monday week, with the totals', async () => {
    const t = await createTenant(app);
    await seedOutcomes(t, [
      { confidence: 95, outcome: 'unchanged', at: '2026-03-02T10:00:00Z' }, // a Monday
      { confidence: 91, outcome: 'edited', at: '2026-03-08T23:00:00Z' }, // the Sunday of that week
      { confidence: 85, outcome: 'unchanged', answerType: 'generated', at: '2026-03-09T00:30:00Z' },
      { confidence: 72, outcome: 'replaced', answerType: 'generated', topic: 'other', at: '2026-03-10T09:00:00Z' },
      { confidence: 0, outcome: 'not_applicable', answerType: 'unknown', topic: null, at: '2026-03-11T09:00:00Z' },
      { confidence: 60, outcome: 'regenerated', at: '2026-03-12T09:00:00Z' },
      // Outside the period:
      { confidence: 95, outcome: 'replaced', at: '2026-02-28T23:59:59Z' },
      { confidence: 95, outcome: 'replaced', at: '2026-04-01T00:00:00Z' },
    ]);
    const res = await accuracy(t.users.manager, '?from=2026-03-01&to=2026-03-31');
    expect(res.statusCode, res.body).toBe(200);
    const view = res.data as AccuracyView;
    expect(view).toMatchObject({ from: '2026-03-01', to: '2026-03-31', threshold: null });
    expect(view.totals).toEqual({
      reviewed: 6,
      unchanged: 2,
      edited: 1,
      replaced: 1,
      notApplicable: 1,
      regenerated: 1,
      keptShare: 2 / 6,
    });
    expect(view.bands.map((b) => [b.band, b.reviewed, b.unchanged, b.meanConfidence])).toEqual([
      ['below-50', 1, 0, 0],
      ['50-69', 1, 0, 60],
      ['70-79', 1, 0, 72],
      ['80-89', 1, 1, 85],
      ['90-100', 2, 1, 93],
    ]);
    expect(view.bands[4]).toMatchObject({ label: '90–100%', min: 90, max: 100, edited: 1, keptShare: 0.5 });
    expect(view.bands[0]?.keptShare).toBe(0);
    expect(view.byType.map((b) => [b.answerType, b.reviewed, b.unchanged])).toEqual([
      ['canonical', 3, 1],
      ['generated', 2, 1],
      ['draft', 0, 0],
      ['unknown', 1, 0],
    ]);
    expect(view.byType[2]?.keptShare).toBeNull();
    expect(view.byTopic.map((b) => [b.topic, b.reviewed])).toEqual([
      ['mfa', 4],
      ['other', 1],
      ['unrecorded', 1],
    ]);
    expect(view.byTopic[0]?.label).toMatch(/\S/);
    expect(view.weekly.map((w) => [w.weekStart, w.reviewed, w.unchanged])).toEqual([
      ['2026-03-02', 2, 1],
      ['2026-03-09', 4, 1],
    ]);

    // A band narrows the rows.
    const band = (await accuracy(t.users.admin, '?from=2026-03-01&to=2026-03-31&band=90-100')).data as AccuracyView;
    expect(band.totals.reviewed).toBe(2);
  });

  it('offers the threshold its evidence supports', async () => {
    const t = await createTenant(app);
    const at = new Date().toISOString();
    await seedOutcomes(t, [
      ...Array.from({ length: 60 }, () => ({ confidence: 92, outcome: 'unchanged', at })),
      { confidence: 92, outcome: 'edited', at },
      ...Array.from({ length: 10 }, () => ({ confidence: 80, outcome: 'replaced', at })),
    ]);
    const view = (await accuracy(t.users.manager)).data as AccuracyView;
    expect(view.threshold).toEqual({ confidence: 92, kept: 60, reviewed: 61 });
    expect(view.totals.reviewed).toBe(71);
  });

  it('answers an empty workspace with zero counts and no threshold, over the last 90 days', async () => {
    const t = await createTenant(app);
    const res = await accuracy(t.users.admin);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.data as AccuracyView;
    const day = 24 * 3600_000;
    expect(Date.parse(view.to) - Date.parse(view.from)).toBe(89 * day);
    expect(view.to).toBe(new Date().toISOString().slice(0, 10));
    expect(view.totals).toMatchObject({ reviewed: 0, keptShare: null });
    expect(view.bands).toHaveLength(5);
    expect(view.bands.every((b) => b.reviewed === 0 && b.meanConfidence === null)).toBe(true);
    expect(view).toMatchObject({ byTopic: [], weekly: [], threshold: null });
  });

  it('refuses a period over two years, an unknown band and days that are not days, with a sentence', async () => {
    const t = await createTenant(app);
    for (const query of [
      '?from=2023-01-01&to=2026-01-01',
      '?band=95-100',
      '?from=2026-02-31',
      '?from=2026-03-05&to=2026-03-01',
      '?from=yesterday',
    ]) {
      const res = await accuracy(t.users.manager, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.data.error, query).toMatch(/^[A-Za-z].*\S/);
    }
    expect((await accuracy(t.users.manager, '?from=2024-01-01&to=2025-12-31')).statusCode).toBe(200);
    expect((await accuracy(t.users.manager, '?from=2023-12-31&to=2025-12-31')).statusCode).toBe(400);
  });

  it('is for managers and admins of the workspace’s own organization', async () => {
    const t = await createTenant(app);
    const other = await createTenant(app);
    for (const [user, status] of [
      [t.users.viewer, 403],
      [t.users.contributor, 403],
      [t.users.manager, 200],
      [t.users.admin, 200],
    ] as const) {
      expect((await accuracy(user)).statusCode, user.role).toBe(status);
      expect((await call(app, 'GET', '/api/admin/accuracy/export', { as: user })).statusCode, user.role).toBe(status);
    }
    const cross = await call(app, 'GET', '/api/admin/accuracy', {
      as: t.users.admin,
      headers: { 'x-workspace-id': other.workspaceId },
    });
    expect(cross.statusCode).toBe(404);
    const crossExport = await call(app, 'GET', '/api/admin/accuracy/export', {
      as: t.users.admin,
      headers: { 'x-workspace-id': other.workspaceId },
    });
    expect(crossExport.statusCode).toBe(404);
  });
});

describe('GET /api/admin/accuracy/export', () => {
  it('sends the rows behind the page as CSV, one per outcome', async () => {
    const { t, batchId, q1, q2 } = await reviewedAssessment();
    await act(t.users.manager, batchId, q1.id, 'approve');
    await write(t.users.contributor, batchId, q2.id, '=HYPERLINK("x") No, not everywhere.');
    await act(t.users.manager, batchId, q2.id, 'approve');
    const res = await call(app, 'GET', '/api/admin/accuracy/export', { as: t.users.manager });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="answer_accuracy-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('question,outcome,editDistance,confidence,answerType,topic,assessment,reviewer,reviewedAt');
    expect(lines).toHaveLength(3);
    const mfa = lines.find((l) => l.includes('multi-factor'));
    expect(mfa).toContain(`,unchanged,0.000,${q1.confidence},canonical,`);
    expect(mfa).toContain(`,Acme review,${t.users.manager.username},`);
    expect(lines.some((l) => l.includes(',replaced,'))).toBe(true);
    // Another band: nothing.
    const none = await call(app, 'GET', '/api/admin/accuracy/export?band=below-50', { as: t.users.manager });
    expect(none.body.replace(/^\uFEFF/, '').split('\r\n')).toHaveLength(1);
  });
});

describe('the back-fill of migration 0022', () => {
  const MIGRATIONS = path.resolve(__dirname, '../server/db/migrations');
  let client: PGlite;
  let oldFolder: string;
  beforeAll(async () => {
    oldFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-migrations-'));
    fs.cpSync(MIGRATIONS, oldFolder, { recursive: true });
    const journalFile = path.join(oldFolder, 'meta/_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.tag < '0022');
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    client = new PGlite({ extensions: { pg_trgm } });
    await migrate(drizzle(client), { migrationsFolder: oldFolder });
  });
  afterAll(async () => {
    await client.close();
    fs.rmSync(oldFolder, { recursive: true, force: true });
  });

  it('records approved machine answers as unchanged and leaves the rest out', async () => {
    const one = async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows[0] as T;
    const { id: orgId } = await one<{ id: string }>(
      `insert into organizations (name, slug, brand_profile) values ('Old Corp', 'old-corp', '{}'::jsonb) returning id`,
    );
    const { id: wsId } = await one<{ id: string }>(
      `insert into workspaces (organization_id, name) values ($1, 'Default') returning id`,
      [orgId],
    );
    const { id: userId } = await one<{ id: string }>(
      `insert into users (organization_id, username, email, password_hash, role)
       values ($1, 'olduser', 'old@example.com', 'x', 'manager') returning id`,
      [orgId],
    );
    const { id: batchId } = await one<{ id: string }>(
      `insert into assessment_batches (organization_id, workspace_id, name, status, total_questions, metadata,
         source_format, mapping)
       values ($1, $2, 'Old review', 'completed', 4, '{}'::jsonb, 'csv', '[]'::jsonb) returning id`,
      [orgId, wsId],
    );
    const entry = '0b6f7c1e-1d2a-4c3b-8e9f-0a1b2c3d4e5f';
    const sources = JSON.stringify([{ type: 'library', canonicalAnswerId: entry, score: 0.9 }]);
    const rows: Array<[string, string, string, string | null, string, number | null]> = [
      // question, review state, origin, answer type, answer, confidence
      ['machine approved', 'approved', 'machine', 'canonical', 'Yes, always.', 95],
      ['person approved', 'approved', 'person', 'draft', 'No, never.', null],
      ['machine drafted', 'drafted', 'machine', 'generated', 'Yes, we do.', 70],
      ['machine not applicable', 'not_applicable', 'machine', 'canonical', 'Yes.', 88],
    ];
    for (const [i, [question, state, origin, type, answer, confidence]] of rows.entries()) {
      await client.query(
        `insert into assessment_questions (batch_id, organization_id, workspace_id, order_index, question, status,
           answer, answer_type, confidence, sources, answer_origin, review_state, reviewed_by, reviewed_at)
         values ($1, $2, $3, $4, $5, 'completed', $6, $7, $8, $9::jsonb, $10, $11, $12, '2026-01-05T10:00:00Z')`,
        [batchId, orgId, wsId, i, question, answer, type, confidence, sources, origin, state, userId],
      );
    }

    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });

    const outcomes = await client.query<Record<string, unknown>>(
      `select q.question, r.outcome, r.edit_distance, r.confidence, r.answer_type, r.topic, r.library_entry_id,
         r.reviewed_by, r.reviewed_at
       from review_outcomes r join assessment_questions q on q.id = r.question_id`,
    );
    expect(outcomes.rows).toEqual([
      {
        question: 'machine approved',
        outcome: 'unchanged',
        edit_distance: 0,
        confidence: 95,
        answer_type: 'canonical',
        topic: null,
        library_entry_id: entry,
        reviewed_by: userId,
        reviewed_at: new Date('2026-01-05T10:00:00Z'),
      },
    ]);
    // The machine's answers are their own snapshot; a person's has none to give.
    const snapshots = await client.query<{ question: string; machine_answer: string | null }>(
      `select question, machine_answer, machine_confidence from assessment_questions order by order_index`,
    );
    expect(snapshots.rows).toEqual([
      { question: 'machine approved', machine_answer: 'Yes, always.', machine_confidence: 95 },
      { question: 'person approved', machine_answer: null, machine_confidence: null },
      { question: 'machine drafted', machine_answer: 'Yes, we do.', machine_confidence: 70 },
      { question: 'machine not applicable', machine_answer: 'Yes.', machine_confidence: 88 },
    ]);
  });
});
