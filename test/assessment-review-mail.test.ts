import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssessmentDetail, AssessmentQuestionView } from '../common/schemas/assessments';
import { auditLogs } from '../server/db/schema';
import { createTestApp, type TestApp } from './helpers/app';
import { call, type Session } from './helpers/api';
import { createAnswer, createTenant, createUser, type Tenant, type TestUser } from './helpers/factories';
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
const CSV = `Category,Question\nAccess,"${MFA_Q}"\nData,"${ENC_Q}"\n`;

/** A tenant whose library answers both questions, so both start drafted and can be submitted at once. */
async function tenantWithLibrary(): Promise<Tenant> {
  const t = await createTenant(app);
  await createAnswer(app, t.users.admin, { question: MFA_Q, answer: MFA_A, tags: ['mfa'] });
  await createAnswer(app, t.users.admin, { question: ENC_Q, answer: ENC_A, tags: ['encryption'] });
  return t;
}

/** An assessment of both questions, imported by `by` (its creator) under `name`. */
async function assessment(by: Session, name: string) {
  const created = await importCsv(app, by, CSV, name);
  const d = (await waitForBatch(app, by, created.id)) as unknown as AssessmentDetail;
  const [q1, q2] = d.questions as [AssessmentQuestionView, AssessmentQuestionView];
  return { batchId: created.id, q1, q2 };
}

const submit = (as: Session, batchId: string, qid: string) =>
  call(app, 'POST', `/api/assessments/${batchId}/questions/${qid}/review`, { as, body: { action: 'submit' } });

const assign = (as: Session, batchId: string, assigneeId: string, questionIds: string[]) =>
  call(app, 'POST', `/api/assessments/${batchId}/review`, {
    as,
    body: { action: 'assign', assigneeId, selection: { questionIds } },
  });

const reviewMails = (who: TestUser, name?: string) =>
  mailsTo(smtp, who.email).filter((m) => m.includes(`waiting for your review in "${name ?? ''}`));

/** The submit rows of an assessment's trail that say whom they mailed. */
async function mailedTo(batchId: string): Promise<string[][]> {
  const rows = await app.database.db
    .select({ details: auditLogs.details })
    .from(auditLogs)
    .where(and(eq(auditLogs.entityId, batchId), eq(auditLogs.action, 'assessment_question_reviewed')))
    .orderBy(auditLogs.seq);
  return rows.map((r) => (r.details?.mailedTo as string[] | undefined) ?? []);
}

describe('the e-mail to reviewers when an answer is submitted', () => {
  it('mails whoever assigned the question, once per assessment in the window, never the submitter', async () => {
    const t = await tenantWithLibrary();
    const { batchId, q1, q2 } = await assessment(t.users.contributor, 'Acme review');
    expect((await assign(t.users.manager, batchId, t.users.contributor.id, [q1.id, q2.id])).statusCode).toBe(200);

    const first = await submit(t.users.contributor, batchId, q1.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.data.reviewState).toBe('in_review');
    await waitUntil(() => expect(reviewMails(t.users.manager, 'Acme review')).toHaveLength(1));
    const mail = reviewMails(t.users.manager)[0] ?? '';
    expect(mail).toContain('Subject: 1 question waiting for your review in "Acme review"');
    expect(mail).toContain(`${t.users.contributor.username} submitted an answer for review in Verity.`);
    expect(mail).toContain('Assessment: "Acme review"\r\nCustomer: "Acme"');
    expect(mail).toContain(`http://verity.test/assessments/${batchId}?review=in_review&workspace=${t.workspaceId}`);

    // The second submit within the window mails nobody: the trail names the manager on the first one only.
    expect((await submit(t.users.contributor, batchId, q2.id)).statusCode).toBe(200);
    expect(await mailedTo(batchId)).toEqual([[t.users.manager.id], []]);
    // Another assessment is another mail; once it arrived, a second one about the first would have too.
    const other = await assessment(t.users.contributor, 'Second review');
    await assign(t.users.manager, other.batchId, t.users.contributor.id, [other.q1.id]);
    await submit(t.users.contributor, other.batchId, other.q1.id);
    await waitUntil(() => expect(reviewMails(t.users.manager, 'Second review')).toHaveLength(1));
    expect(reviewMails(t.users.manager, 'Acme review')).toHaveLength(1);
    // The admin could approve too, but the manager asked for the work; the submitter reviews nothing of their own.
    expect(reviewMails(t.users.admin)).toEqual([]);
    expect(reviewMails(t.users.contributor)).toEqual([]);

    // Once the window has passed, a submit is news again, and names every question still waiting.
    await app.database.db
      .update(auditLogs)
      .set({ createdAt: sql`${auditLogs.createdAt} - interval '61 minutes'` })
      .where(eq(auditLogs.entityId, batchId));
    const back = await call(app, 'POST', `/api/assessments/${batchId}/questions/${q1.id}/review`, {
      as: t.users.manager,
      body: { action: 'return' },
    });
    expect(back.statusCode, back.body).toBe(200);
    await submit(t.users.contributor, batchId, q1.id);
    await waitUntil(() => expect(reviewMails(t.users.manager, 'Acme review')).toHaveLength(2));
    expect(reviewMails(t.users.manager, 'Acme review')[1]).toContain(
      'Subject: 2 questions waiting for your review in "Acme review"',
    );
  });

  it('falls back to the creator, then to every manager and admin, skipping the submitter and removed people', async () => {
    const t = await tenantWithLibrary();
    // Unassigned, created by a manager: the creator is told, no one else.
    const byManager = await assessment(t.users.manager, 'Created by a manager');
    await submit(t.users.contributor, byManager.batchId, byManager.q1.id);
    await waitUntil(() => expect(reviewMails(t.users.manager, 'Created by a manager')).toHaveLength(1));
    expect(await mailedTo(byManager.batchId)).toEqual([[t.users.manager.id]]);

    // Created by a contributor, who cannot approve: every manager and admin is told, never a viewer.
    const byContributor = await assessment(t.users.contributor, 'Created by a contributor');
    await submit(t.users.contributor, byContributor.batchId, byContributor.q1.id);
    await waitUntil(() => expect(reviewMails(t.users.admin, 'Created by a contributor')).toHaveLength(1));
    await waitUntil(() => expect(reviewMails(t.users.manager, 'Created by a contributor')).toHaveLength(1));
    expect(reviewMails(t.users.viewer)).toEqual([]);
    expect(new Set((await mailedTo(byContributor.batchId))[0])).toEqual(
      new Set([t.users.admin.id, t.users.manager.id]),
    );

    // A manager who assigned themselves and submits is not their own reviewer; a removed assigner is no one's.
    const self = await assessment(t.users.contributor, 'Self-assigned');
    await assign(t.users.manager, self.batchId, t.users.manager.id, [self.q1.id]);
    await submit(t.users.manager, self.batchId, self.q1.id);
    expect(await mailedTo(self.batchId)).toEqual([[t.users.admin.id]]);

    const reviewer = await createUser(app, t.users.admin, 'manager');
    const removed = await assessment(t.users.manager, 'Assigner removed');
    await assign(reviewer, removed.batchId, t.users.contributor.id, [removed.q1.id]);
    expect(
      (await call(app, 'DELETE', `/api/organizations/users/${reviewer.id}`, { as: t.users.admin })).statusCode,
    ).toBe(200);
    await submit(t.users.contributor, removed.batchId, removed.q1.id);
    expect(await mailedTo(removed.batchId)).toEqual([[t.users.manager.id]]);
    await waitUntil(() => expect(reviewMails(t.users.manager, 'Assigner removed')).toHaveLength(1));
    expect(mailsTo(smtp, reviewer.email).filter((m) => m.includes('waiting for your review'))).toEqual([]);
  });

  it('mails nobody but the approvers of the organization that owns the assessment', async () => {
    const t = await tenantWithLibrary();
    const other = await createTenant(app);
    const { batchId, q1 } = await assessment(t.users.contributor, 'Own organization');
    await submit(t.users.contributor, batchId, q1.id);
    await waitUntil(() => expect(reviewMails(t.users.manager, 'Own organization')).toHaveLength(1));
    expect(reviewMails(other.users.manager)).toEqual([]);
    expect(reviewMails(other.users.admin)).toEqual([]);
  });
});

describe('GET /api/review-queue', () => {
  const queue = (as: Session | null, headers?: Record<string, string>) =>
    call(app, 'GET', '/api/review-queue', { as, headers });

  it('counts the questions in review of the current workspace only', async () => {
    const t = await tenantWithLibrary();
    expect((await queue(t.users.manager)).data).toEqual({ questions: 0, assessments: 0 });
    const a = await assessment(t.users.contributor, 'First');
    const b = await assessment(t.users.contributor, 'Second');
    await submit(t.users.contributor, a.batchId, a.q1.id);
    await submit(t.users.contributor, a.batchId, a.q2.id);
    await submit(t.users.contributor, b.batchId, b.q1.id);
    // Drafted and approved questions wait for no reviewer.
    await call(app, 'POST', `/api/assessments/${b.batchId}/questions/${b.q2.id}/review`, {
      as: t.users.manager,
      body: { action: 'approve' },
    });

    // Another workspace of the same organization has its own queue.
    const ws = await call(app, 'POST', '/api/workspaces', { as: t.users.admin, body: { name: 'Second workspace' } });
    expect(ws.statusCode, ws.body).toBe(201);
    const elsewhere = { ...t.users.contributor, workspaceId: ws.data.id as string };
    await createAnswer(app, { ...t.users.admin, workspaceId: ws.data.id }, { question: MFA_Q, answer: MFA_A });
    const c = await assessment(elsewhere, 'Elsewhere');
    await submit(elsewhere, c.batchId, c.q1.id);

    const res = await queue(t.users.manager);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toEqual({ questions: 3, assessments: 2 });
    expect((await queue({ ...t.users.admin, workspaceId: ws.data.id })).data).toEqual({
      questions: 1,
      assessments: 1,
    });

    // Approved or sent back, a question leaves the queue.
    await call(app, 'POST', `/api/assessments/${a.batchId}/questions/${a.q1.id}/review`, {
      as: t.users.manager,
      body: { action: 'approve' },
    });
    await call(app, 'POST', `/api/assessments/${b.batchId}/questions/${b.q1.id}/review`, {
      as: t.users.admin,
      body: { action: 'return' },
    });
    expect((await queue(t.users.manager)).data).toEqual({ questions: 1, assessments: 1 });
  });

  it('is refused to those who cannot approve, to another organization and without a session', async () => {
    const t = await tenantWithLibrary();
    const other = await createTenant(app);
    const { batchId, q1 } = await assessment(t.users.contributor, 'Private');
    await submit(t.users.contributor, batchId, q1.id);
    for (const who of [t.users.viewer, t.users.contributor]) {
      const res = await queue(who);
      expect(res.statusCode, who.role).toBe(403);
      expect(res.data).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    }
    // Another organization's manager naming this workspace finds nothing there; in their own, nothing waits.
    const foreign = await queue(other.users.manager, { 'x-workspace-id': t.workspaceId });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain(batchId);
    expect((await queue(other.users.manager)).data).toEqual({ questions: 0, assessments: 0 });
    expect((await queue(null)).statusCode).toBe(401);
  });
});
