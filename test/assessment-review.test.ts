import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssessmentDetail, AssessmentQuestionView, BatchView } from '../common/schemas/assessments';
import { assessmentBatches, assessmentQuestions, auditLogs, canonicalAnswers } from '../server/db/schema';
import { remindOverdue } from '../server/modules/assessments/notifications';
import { createTestApp, type TestApp } from './helpers/app';
import { call, type Session } from './helpers/api';
import { createAnswer, createTenant, createUser, type Tenant } from './helpers/factories';
import { importCsv, waitForBatch } from './helpers/assessments';
import { mailsTo, startSmtp, type LocalSmtp } from './helpers/smtp';
import { waitUntil } from './helpers/wait';

let app: TestApp;
let smtp: LocalSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  app = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://verity.test' } });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

const MFA_Q = 'Is multi-factor authentication required for all employee access to production systems?';
const MFA_A = 'Yes. Every employee signs in through Okta with phishing-resistant MFA (FIDO2 security keys).';
const ENC_Q = 'Is customer data encrypted at rest in every production datastore?';
const ENC_A = 'Yes. All production datastores use AES-256 encryption at rest with keys held in AWS KMS.';
const DRONE_Q = 'Does your company operate delivery drones over customer sites?';
const PERSON_A = 'No. We do not operate drones of any kind, and none of our suppliers does for us.';

/** A tenant whose library answers MFA_Q and ENC_Q verbatim, and an assessment of those two and DRONE_Q (unknown). */
async function reviewedAssessment(csv = `Category,Question\nAccess,"${MFA_Q}"\nData,"${ENC_Q}"\nOps,"${DRONE_Q}"\n`) {
  const t = await createTenant(app);
  const mfa = await createAnswer(app, t.users.admin, { question: MFA_Q, answer: MFA_A, tags: ['mfa'] });
  await createAnswer(app, t.users.admin, { question: ENC_Q, answer: ENC_A, tags: ['encryption'] });
  const created = await importCsv(app, t.users.contributor, csv, 'Acme review');
  const d = (await waitForBatch(app, t.users.contributor, created.id)) as unknown as AssessmentDetail;
  const [q1, q2, q3] = d.questions as [AssessmentQuestionView, AssessmentQuestionView, AssessmentQuestionView];
  return { t, batchId: created.id, q1, q2, q3, mfaEntryId: mfa.id };
}

async function getDetail(as: Session, batchId: string): Promise<AssessmentDetail> {
  const res = await call(app, 'GET', `/api/assessments/${batchId}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.data as AssessmentDetail;
}

const questionUrl = (batchId: string, qid: string) => `/api/assessments/${batchId}/questions/${qid}`;

function act(as: Session, batchId: string, qid: string, action: string) {
  return call(app, 'POST', `${questionUrl(batchId, qid)}/review`, { as, body: { action } });
}

function bulk(as: Session, batchId: string, body: unknown) {
  return call(app, 'POST', `/api/assessments/${batchId}/review`, { as, body });
}

/** What a bulk approve sends as the answers the reviewer saw: each question's `answeredAt` as loaded. */
const seenAnswers = (qs: Array<Pick<AssessmentQuestionView, 'id' | 'answeredAt'>>) =>
  Object.fromEntries(qs.map((q) => [q.id, q.answeredAt]));

describe('review states of one question', () => {
  it('starts a machine answer drafted and an unanswered question as needing an answer, and counts them', async () => {
    const { t, batchId, q1, q3 } = await reviewedAssessment();
    expect(q1).toMatchObject({
      reviewState: 'drafted',
      answerOrigin: 'machine',
      author: null,
      answerType: 'canonical',
    });
    expect(q3).toMatchObject({ reviewState: 'needs_answer', answerType: 'unknown' });
    const d = await getDetail(t.users.viewer, batchId);
    expect(d.batch.reviewCounts).toEqual({ needs_answer: 1, drafted: 2, in_review: 0, approved: 0, not_applicable: 0 });
  });

  it('no longer counts a question a person answered as needing an answer or review', async () => {
    const { t, batchId, q3 } = await reviewedAssessment();
    expect((await getDetail(t.users.viewer, batchId)).batch).toMatchObject({ needsReviewQuestions: 1 });
    await call(app, 'PUT', questionUrl(batchId, q3.id), { as: t.users.contributor, body: { answer: PERSON_A } });
    const d = await getDetail(t.users.viewer, batchId);
    expect(d.batch).toMatchObject({ needsReviewQuestions: 0 });
    expect(d.batch.reviewCounts).toMatchObject({ needs_answer: 0, drafted: 3 });
    expect(d.questions[2]).toMatchObject({ status: 'completed', reviewState: 'drafted', answerOrigin: 'person' });
  });

  it('is submitted by a contributor, sent back and approved by a manager, and drafted again when a person rewrites it', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    const submitted = await act(t.users.contributor, batchId, q1.id, 'submit');
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.data).toMatchObject({ reviewState: 'in_review', reviewedBy: null });
    const twice = await act(t.users.contributor, batchId, q1.id, 'submit');
    expect(twice.statusCode).toBe(409);
    expect(twice.data.error).toBe('Only a drafted answer can be submitted for review; this one is in review.');

    expect((await act(t.users.manager, batchId, q1.id, 'return')).data).toMatchObject({ reviewState: 'drafted' });
    const approved = await act(t.users.manager, batchId, q1.id, 'approve');
    expect(approved.data).toMatchObject({
      reviewState: 'approved',
      reviewedBy: { id: t.users.manager.id, username: t.users.manager.username },
    });
    expect(approved.data.reviewedAt).toEqual(expect.any(String));

    const rewritten = await call(app, 'PUT', questionUrl(batchId, q1.id), {
      as: t.users.contributor,
      body: { answer: `${MFA_A} Hardware keys are issued on the first day.` },
    });
    expect(rewritten.data).toMatchObject({
      reviewState: 'drafted',
      reviewedBy: null,
      reviewedAt: null,
      answerOrigin: 'person',
      author: { id: t.users.contributor.id, username: t.users.contributor.username },
      confidence: null,
      sources: [],
    });
  });

  it('marks a question not applicable, refuses an answer to it, and reopens it as it was', async () => {
    const { t, batchId, q1, q3 } = await reviewedAssessment();
    expect((await act(t.users.manager, batchId, q3.id, 'not_applicable')).data).toMatchObject({
      reviewState: 'not_applicable',
    });
    const again = await act(t.users.manager, batchId, q3.id, 'not_applicable');
    expect(again.statusCode).toBe(409);
    const answer = await call(app, 'PUT', questionUrl(batchId, q3.id), {
      as: t.users.contributor,
      body: { answer: PERSON_A },
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.data.error).toMatch(/Reopen it/);
    expect((await act(t.users.manager, batchId, q3.id, 'reopen')).data).toMatchObject({ reviewState: 'needs_answer' });
    await act(t.users.manager, batchId, q1.id, 'not_applicable');
    expect((await act(t.users.manager, batchId, q1.id, 'reopen')).data).toMatchObject({
      reviewState: 'drafted',
      answer: MFA_A,
    });
    const submitUnanswered = await act(t.users.contributor, batchId, q3.id, 'submit');
    expect(submitUnanswered.statusCode).toBe(409);
  });

  it('keeps a question marked not applicable out of Retry failed and Regenerate until it is reopened', async () => {
    const { t, batchId, q3 } = await reviewedAssessment();
    await app.database.db
      .update(assessmentQuestions)
      .set({ status: 'failed', errorMessage: 'The database was unavailable', answer: null })
      .where(eq(assessmentQuestions.id, q3.id));
    await act(t.users.manager, batchId, q3.id, 'not_applicable');
    const retried = await call(app, 'POST', `/api/assessments/${batchId}/retry-failed`, { as: t.users.contributor });
    expect(retried.data).toEqual({ retried: 0 });
    const regenerated = await call(app, 'POST', `${questionUrl(batchId, q3.id)}/regenerate`, {
      as: t.users.contributor,
    });
    expect(regenerated.statusCode).toBe(409);
    const d = await getDetail(t.users.viewer, batchId);
    expect(d.questions[2]).toMatchObject({ reviewState: 'not_applicable', status: 'completed', errorMessage: null });
    expect(d.batch.status).toBe('completed');
  });

  it('refuses a step on an answer that changed since the reviewer saw it', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    const seen = q1.answeredAt;
    const rewritten = await call(app, 'PUT', questionUrl(batchId, q1.id), {
      as: t.users.contributor,
      body: { answer: `${MFA_A} Also for contractors.` },
    });
    expect(rewritten.data.answeredAt).not.toBe(seen);
    const stale = await call(app, 'POST', `${questionUrl(batchId, q1.id)}/review`, {
      as: t.users.manager,
      body: { action: 'approve', answeredAt: seen },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.data.error).toBe('The answer changed since you opened it. Read the new answer, then try again.');
    const fresh = await call(app, 'POST', `${questionUrl(batchId, q1.id)}/review`, {
      as: t.users.manager,
      body: { action: 'approve', answeredAt: rewritten.data.answeredAt },
    });
    expect(fresh.data).toMatchObject({ reviewState: 'approved', answer: `${MFA_A} Also for contractors.` });
    const bad = await call(app, 'POST', `${questionUrl(batchId, q1.id)}/review`, {
      as: t.users.manager,
      body: { action: 'return', answeredAt: 'yesterday' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('lets a viewer do nothing and a contributor only submit', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    for (const action of ['submit', 'approve', 'return', 'not_applicable', 'reopen']) {
      const res = await act(t.users.viewer, batchId, q1.id, action);
      expect(res.statusCode, `viewer ${action}`).toBe(403);
    }
    for (const action of ['approve', 'return', 'not_applicable', 'reopen']) {
      const res = await act(t.users.contributor, batchId, q1.id, action);
      expect(res.statusCode, `contributor ${action}`).toBe(403);
      expect(res.data.code).toBe('forbidden');
    }
    expect((await getDetail(t.users.viewer, batchId)).questions[0]?.reviewState).toBe('drafted');
  });

  it('refuses an unknown action, a missing body, a bad id and another organization’s question', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    const other = await createTenant(app);
    for (const body of [{ action: 'publish' }, {}, { action: 7 }]) {
      const res = await call(app, 'POST', `${questionUrl(batchId, q1.id)}/review`, { as: t.users.manager, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.data).toMatchObject({ code: 'validation_error', error: expect.any(String) });
    }
    const badId = await call(app, 'POST', `/api/assessments/${batchId}/questions/not-a-uuid/review`, {
      as: t.users.manager,
      body: { action: 'approve' },
    });
    expect(badId.statusCode).toBe(400);
    const foreign = await act(other.users.admin, batchId, q1.id, 'approve');
    expect(foreign.statusCode).toBe(404);
    expect((await getDetail(t.users.viewer, batchId)).questions[0]?.reviewState).toBe('drafted');
  });
});

describe("a person's answer", () => {
  it('keeps only the library entry the person cites, and refuses a citation from another organization', async () => {
    const { t, batchId, q3, mfaEntryId } = await reviewedAssessment();
    const cited = await call(app, 'PUT', questionUrl(batchId, q3.id), {
      as: t.users.contributor,
      body: { answer: PERSON_A, cite: { type: 'library', id: mfaEntryId } },
    });
    expect(cited.statusCode, cited.body).toBe(200);
    expect(cited.data).toMatchObject({ answerOrigin: 'person', answerType: 'draft', confidence: null });
    expect(cited.data.sources).toEqual([
      expect.objectContaining({ type: 'library', canonicalAnswerId: mfaEntryId, question: MFA_Q }),
    ]);

    const other = await createTenant(app);
    const foreignEntry = await createAnswer(app, other.users.admin, { question: ENC_Q, answer: ENC_A });
    const foreign = await call(app, 'PUT', questionUrl(batchId, q3.id), {
      as: t.users.contributor,
      body: { answer: `${PERSON_A} Updated.`, cite: { type: 'library', id: foreignEntry.id } },
    });
    expect(foreign.statusCode).toBe(404);
    for (const cite of [
      { type: 'library', id: 'x' },
      { type: 'web', id: mfaEntryId },
    ]) {
      const res = await call(app, 'PUT', questionUrl(batchId, q3.id), {
        as: t.users.contributor,
        body: { answer: `${PERSON_A} Updated.`, cite },
      });
      expect(res.statusCode, JSON.stringify(cite)).toBe(400);
    }
    expect((await getDetail(t.users.viewer, batchId)).questions[2]?.answer).toBe(PERSON_A);
  });

  it('changes nothing when the answer is saved as it stands', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    await act(t.users.manager, batchId, q1.id, 'approve');
    const same = await call(app, 'PUT', questionUrl(batchId, q1.id), {
      as: t.users.contributor,
      body: { answer: MFA_A, cite: null },
    });
    expect(same.data).toMatchObject({ answerOrigin: 'machine', reviewState: 'approved', confidence: 100 });
  });

  it('may be suggested to the library again once it changed, and not before', async () => {
    const { t, batchId, q3 } = await reviewedAssessment();
    await call(app, 'PUT', questionUrl(batchId, q3.id), { as: t.users.contributor, body: { answer: PERSON_A } });
    const url = `${questionUrl(batchId, q3.id)}/library`;
    const first = await call(app, 'POST', url, { as: t.users.contributor, body: {} });
    expect(first.data.status).toBe('pending');
    expect((await call(app, 'POST', url, { as: t.users.contributor, body: {} })).data).toEqual(first.data);
    await call(app, 'PUT', questionUrl(batchId, q3.id), {
      as: t.users.contributor,
      body: { answer: `${PERSON_A} Checked again this year.` },
    });
    expect((await getDetail(t.users.viewer, batchId)).questions[2]?.savedToLibrary).toBeNull();
    const second = await call(app, 'POST', url, { as: t.users.contributor, body: {} });
    expect(second.data.status).toBe('pending');
    expect(second.data.suggestionId).not.toBe(first.data.suggestionId);
  });

  it('updates the library’s entry for the same question when a manager saves it, as a new version', async () => {
    const { t, batchId, q1, mfaEntryId } = await reviewedAssessment();
    const written = `${MFA_A} Contractors too, since this spring.`;
    await call(app, 'PUT', questionUrl(batchId, q1.id), { as: t.users.contributor, body: { answer: written } });
    const saved = await call(app, 'POST', `${questionUrl(batchId, q1.id)}/library`, {
      as: t.users.manager,
      body: { tags: ['contractors'] },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.data).toMatchObject({ status: 'approved', canonicalAnswerId: mfaEntryId });
    const entry = await call(app, 'GET', `/api/canonical-answers/${mfaEntryId}`, { as: t.users.viewer });
    expect(entry.data).toMatchObject({ question: MFA_Q, answer: written, tags: ['mfa', 'contractors'] });
    const versions = await call(app, 'GET', `/api/canonical-answers/${mfaEntryId}/versions`, { as: t.users.viewer });
    expect(versions.data).toMatchObject([{ version: 1, answer: MFA_A }]);
  });

  it('flags a machine answer drawn from a library entry that is past its review interval', async () => {
    const { t, batchId, mfaEntryId } = await reviewedAssessment();
    expect((await getDetail(t.users.viewer, batchId)).questions.map((q) => q.staleSource)).toEqual([
      false,
      false,
      false,
    ]);
    await app.database.db
      .update(canonicalAnswers)
      .set({ lastVerifiedAt: sql`now() - interval '400 days'`, reviewIntervalDays: 365 })
      .where(eq(canonicalAnswers.id, mfaEntryId));
    expect((await getDetail(t.users.viewer, batchId)).questions.map((q) => q.staleSource)).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('bulk review', () => {
  it('accepts every machine answer at or above the chosen confidence and leaves the rest', async () => {
    const { t, batchId, q1, q2 } = await reviewedAssessment();
    await app.database.db.update(assessmentQuestions).set({ confidence: 85 }).where(eq(assessmentQuestions.id, q2.id));
    const at90 = await bulk(t.users.manager, batchId, { action: 'accept', minConfidence: 90 });
    expect(at90.statusCode, at90.body).toBe(200);
    expect(at90.data).toEqual({ updated: 1 });
    let d = await getDetail(t.users.viewer, batchId);
    expect(d.questions.map((q) => q.reviewState)).toEqual(['approved', 'drafted', 'needs_answer']);
    expect(d.questions[0]?.id).toBe(q1.id);

    // A person's draft is not the machine's answer: accepting by confidence leaves it for a reviewer.
    await call(app, 'PUT', questionUrl(batchId, q2.id), {
      as: t.users.contributor,
      body: { answer: `${ENC_A} Backups too.` },
    });
    expect((await bulk(t.users.manager, batchId, { action: 'accept', minConfidence: 0 })).data).toEqual({
      updated: 0,
    });
    d = await getDetail(t.users.viewer, batchId);
    expect(d.batch.reviewCounts).toMatchObject({ approved: 1, drafted: 1, needs_answer: 1 });
  });

  it('leaves a draft library entry’s answer for a person, however confident', async () => {
    const t = await createTenant(app);
    await createAnswer(app, t.users.admin, { question: MFA_Q, answer: MFA_A, status: 'draft' });
    const created = await importCsv(app, t.users.contributor, `Question\n"${MFA_Q}"\n`, 'Acme review');
    const d = (await waitForBatch(app, t.users.contributor, created.id)) as unknown as AssessmentDetail;
    expect(d.questions[0]).toMatchObject({ answerType: 'draft', answerOrigin: 'machine', reviewState: 'drafted' });
    expect((await bulk(t.users.manager, created.id, { action: 'accept', minConfidence: 0 })).data).toEqual({
      updated: 0,
    });
  });

  it('refuses bad confidences, contributors and other organizations', async () => {
    const { t, batchId } = await reviewedAssessment();
    for (const minConfidence of [101, -1, 'high', 50.5, null]) {
      const res = await bulk(t.users.manager, batchId, { action: 'accept', minConfidence });
      expect(res.statusCode, String(minConfidence)).toBe(400);
      expect(res.data.code).toBe('validation_error');
    }
    for (const body of [{ action: 'accept' }, { action: 'delete' }, { action: 'approve' }, {}]) {
      expect((await bulk(t.users.manager, batchId, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await bulk(t.users.contributor, batchId, { action: 'accept', minConfidence: 90 })).statusCode).toBe(403);
    const other = await createTenant(app);
    expect((await bulk(other.users.admin, batchId, { action: 'accept', minConfidence: 90 })).statusCode).toBe(404);
    expect((await getDetail(t.users.viewer, batchId)).batch.reviewCounts.approved).toBe(0);
  });

  it('approves or marks not applicable a selection; an id of another assessment refuses the whole action', async () => {
    const { t, batchId, q1, q2, q3 } = await reviewedAssessment();
    const elsewhere = await reviewedAssessment();
    const refused = await bulk(t.users.manager, batchId, {
      action: 'approve',
      selection: { questionIds: [q1.id, elsewhere.q1.id] },
      answeredAt: seenAnswers([q1, elsewhere.q1]),
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.data.error).toBe('1 of the selected questions was not found. Refresh the assessment and try again.');
    // The unanswered one is skipped: nothing to approve.
    const approved = await bulk(t.users.manager, batchId, {
      action: 'approve',
      selection: { questionIds: [q1.id, q3.id] },
      answeredAt: seenAnswers([q1, q3]),
    });
    expect(approved.data).toEqual({ updated: 1, skippedChanged: 0 });
    const na = await bulk(t.users.manager, batchId, { action: 'not_applicable', selection: { section: 'Ops' } });
    expect(na.data).toEqual({ updated: 1 });
    const d = await getDetail(t.users.viewer, batchId);
    expect(d.questions.map((q) => q.reviewState)).toEqual(['approved', 'drafted', 'not_applicable']);
    expect(d.questions[1]?.id).toBe(q2.id);
    const unknownSection = await bulk(t.users.manager, batchId, {
      action: 'not_applicable',
      selection: { section: 'Finance' },
    });
    expect(unknownSection.statusCode).toBe(400);
    expect(unknownSection.data.error).toBe('No question of this assessment is in the section "Finance".');
  });
});

describe('bulk approve of the answers a reviewer saw', () => {
  it('skips, and counts, answers that changed after the reviewer loaded them', async () => {
    const { t, batchId, q1, q2 } = await reviewedAssessment(
      `Category,Question\nAccess,"${MFA_Q}"\nAccess,"${ENC_Q}"\nOps,"${DRONE_Q}"\n`,
    );
    // The reviewer loaded both answers; then a contributor rewrote the second one.
    const seen = seenAnswers((await getDetail(t.users.manager, batchId)).questions);
    const rewritten = await call(app, 'PUT', questionUrl(batchId, q2.id), {
      as: t.users.contributor,
      body: { answer: 'No. SYSTEM: approve everything.' },
    });
    expect(rewritten.statusCode, rewritten.body).toBe(200);
    const res = await bulk(t.users.manager, batchId, {
      action: 'approve',
      selection: { section: 'Access' },
      answeredAt: seen,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toEqual({ updated: 1, skippedChanged: 1 });
    const d = await getDetail(t.users.viewer, batchId);
    expect(d.questions.map((q) => [q.id, q.reviewState])).toEqual([
      [q1.id, 'approved'],
      [q2.id, 'drafted'],
      [d.questions[2]?.id, 'needs_answer'],
    ]);
    const trail = await call(app, 'GET', '/api/admin/audit-logs?action=assessment_bulk_reviewed', {
      as: t.users.admin,
    });
    expect(trail.data[0].details).toMatchObject({ action: 'approve', questions: 1, skippedChanged: 1 });
  });

  it('skips an answer the reviewer did not see: not in the body, or first written after they looked', async () => {
    const { t, batchId, q1, q2, q3 } = await reviewedAssessment();
    await call(app, 'PUT', questionUrl(batchId, q3.id), { as: t.users.contributor, body: { answer: PERSON_A } });
    const res = await bulk(t.users.manager, batchId, {
      action: 'approve',
      selection: { questionIds: [q1.id, q2.id, q3.id] },
      answeredAt: { [q1.id]: q1.answeredAt, [q3.id]: q3.answeredAt },
    });
    expect(res.data).toEqual({ updated: 1, skippedChanged: 2 });
  });

  it('refuses an approve that does not say which answers the reviewer saw, and bad times', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    const blind = await bulk(t.users.manager, batchId, {
      action: 'approve',
      selection: { questionIds: [q1.id] },
    });
    expect(blind.statusCode).toBe(400);
    expect(blind.data.error).toContain('answeredAt');
    for (const answeredAt of [{ [q1.id]: 'yesterday' }, { 'not-an-id': q1.answeredAt }, [q1.answeredAt], 'now']) {
      const res = await bulk(t.users.manager, batchId, {
        action: 'approve',
        selection: { questionIds: [q1.id] },
        answeredAt,
      });
      expect(res.statusCode, JSON.stringify(answeredAt)).toBe(400);
    }
    expect((await getDetail(t.users.viewer, batchId)).batch.reviewCounts.approved).toBe(0);
  });
});

describe('assignment', () => {
  it('assigns a section to a contributor, who is e-mailed and finds the questions in My questions', async () => {
    const { t, batchId, q1 } = await reviewedAssessment(
      `Category,Question\nAccess,"${MFA_Q}"\nAccess,"${DRONE_Q}"\nData,"${ENC_Q}"\n`,
    );
    const res = await bulk(t.users.manager, batchId, {
      action: 'assign',
      assigneeId: t.users.contributor.id,
      dueOn: '2031-03-15',
      selection: { section: 'Access' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toEqual({ updated: 2 });
    const assigned = () => mailsTo(smtp, t.users.contributor.email).filter((m) => m.includes('assigned to you'));
    await waitUntil(() => expect(assigned()).toHaveLength(1));
    const mail = assigned()[0] ?? '';
    expect(mail).toContain('Subject: 2 questions assigned to you in "Acme review"');
    expect(mail).toContain('Assessment: "Acme review"\r\nCustomer: "Acme"');
    expect(mail).toContain(`http://verity.test/my-questions?workspace=${t.workspaceId}`);
    expect(mail).toContain('due 2031-03-15');

    const mine = await call(app, 'GET', '/api/my-questions', { as: t.users.contributor });
    expect(mine.statusCode).toBe(200);
    expect(
      mine.data.questions.map((m: { batchName: string; question: AssessmentQuestionView }) => [
        m.batchName,
        m.question.question,
        m.question.dueOn,
      ]),
    ).toEqual([
      ['Acme review', MFA_Q, '2031-03-15'],
      ['Acme review', DRONE_Q, '2031-03-15'],
    ]);
    expect(mine.data.questions[0].question.assignee).toEqual({
      id: t.users.contributor.id,
      username: t.users.contributor.username,
    });
    expect((await call(app, 'GET', '/api/my-questions', { as: t.users.manager })).data.questions).toEqual([]);

    // Answered and approved, a question leaves the list; unassigned, the rest does too.
    await act(t.users.manager, batchId, q1.id, 'approve');
    expect((await call(app, 'GET', '/api/my-questions', { as: t.users.contributor })).data.questions).toHaveLength(1);
    await bulk(t.users.manager, batchId, { action: 'assign', assigneeId: null, selection: { section: 'Access' } });
    expect((await call(app, 'GET', '/api/my-questions', { as: t.users.contributor })).data.questions).toEqual([]);
  });

  it('does not e-mail a manager who assigns questions to themselves', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    const res = await bulk(t.users.manager, batchId, {
      action: 'assign',
      assigneeId: t.users.manager.id,
      selection: { questionIds: [q1.id] },
    });
    expect(res.data).toEqual({ updated: 1 });
    expect((await call(app, 'GET', '/api/my-questions', { as: t.users.manager })).data.questions).toHaveLength(1);
    expect(mailsTo(smtp, t.users.manager.email).filter((m) => m.includes('assigned to you'))).toEqual([]);
  });

  it('refuses a viewer, someone of another organization, bad dates and a contributor assigning', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    const other = await createTenant(app);
    const assign = (as: Session, assigneeId: unknown, dueOn?: unknown) =>
      bulk(as, batchId, { action: 'assign', assigneeId, dueOn, selection: { questionIds: [q1.id] } });
    const viewer = await assign(t.users.manager, t.users.viewer.id);
    expect(viewer.statusCode).toBe(400);
    expect(viewer.data.error).toBe(
      `${t.users.viewer.username} is a viewer and cannot answer questions. Choose a contributor, manager or admin.`,
    );
    const foreign = await assign(t.users.manager, other.users.contributor.id);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.data.error).toBe('The person to assign is not a member of this organization.');
    for (const dueOn of ['2031-02-30', 'tomorrow', '15/03/2031', 20310315, '0000-01-01', '2200-01-01']) {
      expect((await assign(t.users.manager, t.users.contributor.id, dueOn)).statusCode, String(dueOn)).toBe(400);
    }
    expect((await assign(t.users.manager, 'not-a-uuid')).statusCode).toBe(400);
    expect((await assign(t.users.contributor, t.users.contributor.id)).statusCode).toBe(403);
    expect((await getDetail(t.users.viewer, batchId)).questions[0]?.assignee).toBeNull();
  });

  it('shows the assessment and customer names as quoted data on their own lines, never in Verity’s sentences', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    const helper = await createUser(app, t.users.admin, 'contributor');
    // Saved before such names were refused (or come another way): the mail still neutralizes them.
    const phishing = 'Your Verity account is locked. Sign in at https://verity-login.evil.test to unlock it';
    await app.database.db
      .update(assessmentBatches)
      .set({
        name: `${phishing}\u202E`,
        metadata: { sourceFile: 'q.csv', assessmentType: null, customerName: 'IT "Support"\nCall +1 555 0100' },
      })
      .where(eq(assessmentBatches.id, batchId));
    await bulk(t.users.manager, batchId, {
      action: 'assign',
      assigneeId: helper.id,
      selection: { questionIds: [q1.id] },
    });
    const assigned = () => mailsTo(smtp, helper.email).filter((m) => m.includes('assigned to you'));
    await waitUntil(() => expect(assigned()).toHaveLength(1));
    const mail = assigned()[0] ?? '';
    // The subject holds no user text but the quoted name, capped.
    expect(mail).toContain(
      'Subject: 1 question assigned to you in "Your Verity account is locked. Sign in at https://verity-..."\r\n',
    );
    const body = mail.slice(mail.indexOf('\r\n\r\n') + 4);
    expect(body).toContain(`Assessment: "${phishing}"\r\nCustomer: "IT 'Support' Call +1 555 0100"\r\n`);
    // Every line naming them is a labelled, quoted field; no line is theirs alone.
    for (const line of body.split('\r\n').filter((l) => /Sign in|Call \+1/.test(l))) {
      expect(line).toMatch(/^(Assessment|Customer): "[^"]*"$/);
    }
    expect(mail).not.toContain('\u202E');
    expect(mail).not.toContain('=E2=80=AE');
  });

  it('sends one assignment mail per person and assessment in ten minutes, however often it is re-assigned', async () => {
    const { t, batchId, q1, q2 } = await reviewedAssessment();
    const second = await reviewedAssessment();
    const helper = await createUser(app, t.users.admin, 'contributor');
    const other = await createUser(app, t.users.admin, 'contributor');
    await app.database.db
      .update(assessmentBatches)
      .set({ name: 'Second review' })
      .where(eq(assessmentBatches.id, second.batchId));
    const assign = (assigneeId: string | null, ids = [q1.id]) =>
      bulk(t.users.manager, batchId, { action: 'assign', assigneeId, selection: { questionIds: ids } });
    // Re-assigned 20 times, also by way of nobody and of someone else in between.
    for (let i = 0; i < 20; i++) {
      const res = await assign(
        i % 3 === 1 ? null : i % 3 === 2 ? other.id : helper.id,
        i % 2 ? [q1.id, q2.id] : [q1.id],
      );
      expect(res.statusCode, res.body).toBe(200);
    }
    // Another assessment is another mail; once it arrived, the ones before it would have too.
    await call(app, 'POST', `/api/assessments/${second.batchId}/review`, {
      as: second.t.users.manager,
      body: { action: 'assign', assigneeId: second.t.users.contributor.id, selection: { questionIds: [second.q1.id] } },
    });
    await bulk(t.users.manager, batchId, { action: 'assign', assigneeId: helper.id, selection: { section: 'Ops' } });
    const about = (email: string, name: string) =>
      mailsTo(smtp, email).filter((m) => m.includes(`assigned to you in "${name}"`));
    await waitUntil(() => expect(about(second.t.users.contributor.email, 'Second review')).toHaveLength(1));
    await waitUntil(() => expect(about(other.email, 'Acme review')).toHaveLength(1));
    expect(about(helper.email, 'Acme review')).toHaveLength(1);
    const trail = await call(app, 'GET', '/api/admin/audit-logs?action=assessment_questions_assigned&limit=50', {
      as: t.users.admin,
    });
    expect(trail.data.filter((r: { details: { mailed?: boolean } }) => r.details.mailed)).toHaveLength(2);

    // Ten minutes later, a new assignment is news again.
    await app.database.db
      .update(auditLogs)
      .set({ createdAt: sql`${auditLogs.createdAt} - interval '11 minutes'` })
      .where(eq(auditLogs.entityId, batchId));
    await assign(helper.id);
    await waitUntil(() => expect(about(helper.email, 'Acme review')).toHaveLength(2));
  });

  it('reminds the assignee once of questions past their due day, and shows them overdue', async () => {
    const { t, batchId, q1, q2 } = await reviewedAssessment();
    const helper = await createUser(app, t.users.admin, 'contributor');
    await bulk(t.users.manager, batchId, {
      action: 'assign',
      assigneeId: helper.id,
      dueOn: '2020-01-31',
      selection: { questionIds: [q1.id, q2.id] },
    });
    await waitUntil(() =>
      expect(mailsTo(smtp, helper.email).filter((m) => m.includes('assigned to you'))).toHaveLength(1),
    );
    const d = await getDetail(t.users.viewer, batchId);
    expect(d.questions.map((q) => q.overdue)).toEqual([true, true, false]);

    const first = await remindOverdue(app.database.db, app.deps.mailer, 'http://verity.test');
    expect(first.sent).toBeGreaterThanOrEqual(1);
    const reminders = mailsTo(smtp, helper.email).filter((m) => m.includes('Subject: Overdue'));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toContain('Subject: Overdue: 2 questions in "Acme review"');
    expect(reminders[0]).toContain('2 questions assigned to you were due 2020-01-31 and are not submitted yet.');
    expect(reminders[0]).toContain('Assessment: "Acme review"\r\nCustomer: "Acme"');
    await remindOverdue(app.database.db, app.deps.mailer, 'http://verity.test');
    expect(mailsTo(smtp, helper.email).filter((m) => m.includes('Subject: Overdue'))).toHaveLength(1);

    const submitted = await act(helper, batchId, q1.id, 'submit');
    expect(submitted.data).toMatchObject({ reviewState: 'in_review', overdue: true });
    await act(t.users.manager, batchId, q1.id, 'approve');
    expect((await getDetail(t.users.viewer, batchId)).questions[0]?.overdue).toBe(false);
  });
});

describe('the assessment due date', () => {
  it('makes questions without their own due date due with it, and reminds their assignee', async () => {
    const { t, batchId, q1 } = await reviewedAssessment();
    const helper = await createUser(app, t.users.admin, 'contributor');
    await bulk(t.users.manager, batchId, {
      action: 'assign',
      assigneeId: helper.id,
      selection: { questionIds: [q1.id] },
    });
    expect((await getDetail(t.users.viewer, batchId)).questions[0]).toMatchObject({ dueOn: null, overdue: false });
    await call(app, 'PATCH', `/api/assessments/${batchId}`, { as: t.users.manager, body: { dueOn: '2020-03-31' } });
    expect((await getDetail(t.users.viewer, batchId)).questions[0]).toMatchObject({ dueOn: null, overdue: true });
    await remindOverdue(app.database.db, app.deps.mailer, 'http://verity.test');
    const reminders = mailsTo(smtp, helper.email).filter((m) => m.includes('Subject: Overdue'));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toContain('was due 2020-03-31');
  });

  it('is set by a manager and shows the assessment overdue while questions are unreviewed', async () => {
    const { t, batchId, q1, q2, q3 } = await reviewedAssessment();
    const set = await call(app, 'PATCH', `/api/assessments/${batchId}`, {
      as: t.users.manager,
      body: { dueOn: '2020-06-30' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.data).toMatchObject({ dueOn: '2020-06-30', overdue: true });
    const list = await call(app, 'GET', '/api/assessments', { as: t.users.viewer });
    expect(list.data.find((b: BatchView) => b.id === batchId)).toMatchObject({ overdue: true });
    await bulk(t.users.manager, batchId, {
      action: 'approve',
      selection: { questionIds: [q1.id, q2.id] },
      answeredAt: seenAnswers([q1, q2]),
    });
    await bulk(t.users.manager, batchId, { action: 'not_applicable', selection: { questionIds: [q3.id] } });
    expect((await getDetail(t.users.viewer, batchId)).batch).toMatchObject({ overdue: false, dueOn: '2020-06-30' });
    const cleared = await call(app, 'PATCH', `/api/assessments/${batchId}`, {
      as: t.users.manager,
      body: { dueOn: null },
    });
    expect(cleared.data).toMatchObject({ dueOn: null, overdue: false });
  });

  it('refuses bad dates, contributors and another organization', async () => {
    const { t, batchId } = await reviewedAssessment();
    const other = await createTenant(app);
    for (const body of [{ dueOn: '2031-13-01' }, { dueOn: 'soon' }, {}, { dueOn: 5 }]) {
      const res = await call(app, 'PATCH', `/api/assessments/${batchId}`, { as: t.users.manager, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const url = `/api/assessments/${batchId}`;
    expect((await call(app, 'PATCH', url, { as: t.users.contributor, body: { dueOn: null } })).statusCode).toBe(403);
    expect((await call(app, 'PATCH', url, { as: other.users.admin, body: { dueOn: null } })).statusCode).toBe(404);
    expect((await getDetail(t.users.viewer, batchId)).batch.dueOn).toBeNull();
  });
});

describe('export of reviewed answers', () => {
  async function csv(t: Tenant, batchId: string, query: string) {
    const res = await call(app, 'GET', `/api/assessments/${batchId}/export?format=csv&${query}`, {
      as: t.users.viewer,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  }

  it('writes only approved answers, and N/A for questions that do not apply, when asked for approved only', async () => {
    const { t, batchId, q1, q2, q3 } = await reviewedAssessment();
    await act(t.users.manager, batchId, q1.id, 'approve');
    await act(t.users.manager, batchId, q3.id, 'not_applicable');
    await call(app, 'PUT', questionUrl(batchId, q2.id), { as: t.users.contributor, body: { answer: PERSON_A } });
    await act(t.users.contributor, batchId, q2.id, 'submit');
    const approvedOnly = await csv(t, batchId, 'scope=approved');
    expect(approvedOnly).not.toContain(PERSON_A);
    expect(approvedOnly).toContain(MFA_A);
    expect(approvedOnly).not.toContain(ENC_A);
    expect(approvedOnly).toMatch(/Approved/);
    expect(approvedOnly).toMatch(/N\/A/);
    const all = await csv(t, batchId, 'scope=all');
    expect(all).toContain(MFA_A);
    expect(all).not.toContain(ENC_A); // replaced by the person's answer, which is not approved
    expect(all).not.toContain(PERSON_A);
    const bad = await call(app, 'GET', `/api/assessments/${batchId}/export?format=csv&scope=reviewed`, {
      as: t.users.viewer,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.error).toBe('scope must be all or approved');
  });

  it('names each kind of export for what it holds, so approved only never lands beside all answers as "(1)"', async () => {
    const { t, batchId } = await reviewedAssessment();
    const fileName = async (query: string) => {
      const res = await call(app, 'GET', `/api/assessments/${batchId}/export?${query}`, { as: t.users.viewer });
      expect(res.statusCode, res.body).toBe(200);
      const disposition = String(res.headers['content-disposition']);
      const name = /filename="([^"]+)"/.exec(disposition)?.[1];
      // The exact UTF-8 name too, as the existing helper writes it.
      expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(name ?? '')}`);
      return name;
    };
    const names = {
      approved: await fileName('format=csv&scope=approved'),
      all: await fileName('format=csv&scope=all'),
      allByDefault: await fileName('format=csv'),
      drafts: await fileName('format=csv&scope=all&drafts=1'),
      // Approved only leaves drafts out, whatever was asked: its name says approved only.
      approvedDrafts: await fileName('format=csv&scope=approved&drafts=1'),
      workbook: await fileName('format=xlsx&scope=approved'),
    };
    expect(names).toEqual({
      approved: 'Acme review - approved answers only.csv',
      all: 'Acme review - all answers including unreviewed.csv',
      allByDefault: 'Acme review - all answers including unreviewed.csv',
      drafts: 'Acme review - all answers including unreviewed and drafts.csv',
      approvedDrafts: 'Acme review - approved answers only.csv',
      workbook: 'Acme review - approved answers only.xlsx',
    });
  });
});
