import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app';
import { call } from '../helpers/api';
import { createAnswer, createTenant, type Tenant } from '../helpers/factories';
import { importCsv, waitForBatch } from '../helpers/assessments';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const MFA_Q = 'Is multi-factor authentication required for all employee access to production systems?';
const MFA_A = 'Yes. Every employee signs in through Okta with phishing-resistant MFA (FIDO2 security keys).';
const DRAFT = 'Yes, and we also hold FedRAMP High (unverified claim typed by a contributor).';

/** An assessment of one question the library answers verbatim, then reworded by a contributor. */
async function contributorDraft(t: Tenant) {
  await createAnswer(app, t.users.admin, { question: MFA_Q, answer: MFA_A, tags: ['mfa'] });
  const created = await importCsv(app, t.users.contributor, `Question\n"${MFA_Q}"\n`, 'Acme review');
  const d = await waitForBatch(app, t.users.contributor, created.id);
  const question = d.questions[0]!;
  expect(question).toMatchObject({ answerType: 'canonical', answer: MFA_A });
  const url = `/api/assessments/${created.id}/questions/${question.id}`;
  const edited = await call(app, 'PUT', url, { as: t.users.contributor, body: { answer: DRAFT } });
  expect(edited.statusCode, edited.body).toBe(200);
  return { batchId: created.id, url };
}

async function exported(t: Tenant, batchId: string, query: string) {
  const res = await call(app, 'GET', `/api/assessments/${batchId}/export?${query}`, { as: t.users.viewer });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

async function xlsxText(t: Tenant, batchId: string, query: string): Promise<string> {
  const res = await app.inject({
    method: 'GET',
    url: `/api/assessments/${batchId}/export?${query}`,
    headers: { cookie: t.users.viewer.cookie },
  });
  expect(res.statusCode).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const cells: string[] = [];
  wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((c) => cells.push(String(c.value)))));
  return cells.join('\n');
}

describe("a contributor's unapproved draft", () => {
  it('is shown as a draft awaiting approval in review', async () => {
    const t = await createTenant(app);
    const { batchId } = await contributorDraft(t);
    const d = await waitForBatch(app, t.users.viewer, batchId);
    expect(d.questions[0]).toMatchObject({
      answerType: 'draft',
      status: 'completed',
      edited: true,
      answer: DRAFT,
      reviewState: 'drafted',
      confidence: null,
      sources: [],
    });
  });

  it('is left out of every export format', async () => {
    const t = await createTenant(app);
    const { batchId } = await contributorDraft(t);
    const csv = await exported(t, batchId, 'format=csv');
    expect(csv.body).toContain(MFA_Q);
    expect(csv.body).not.toContain('FedRAMP');
    const json = await exported(t, batchId, 'format=json');
    expect(json.data.questions[0]).toMatchObject({ answerType: 'draft', answer: null, confidence: null });
    expect(await xlsxText(t, batchId, 'format=xlsx')).not.toContain('FedRAMP');
  });

  it('is exported, marked as a draft, only when the user asks for drafts', async () => {
    const t = await createTenant(app);
    const { batchId } = await contributorDraft(t);
    const csv = await exported(t, batchId, 'format=csv&drafts=1');
    expect(csv.body).toContain(`Draft — not approved: ${DRAFT}`);
    const json = await exported(t, batchId, 'format=json&drafts=1');
    expect(json.data.questions[0].answer).toBe(`Draft — not approved: ${DRAFT}`);
    expect(await xlsxText(t, batchId, 'format=xlsx&drafts=1')).toContain(`Draft — not approved: ${DRAFT}`);
  });

  it('cannot be approved by its contributor; a manager approves it and then it is exported as written', async () => {
    const t = await createTenant(app);
    const { batchId, url } = await contributorDraft(t);
    const self = await call(app, 'POST', `${url}/review`, { as: t.users.contributor, body: { action: 'approve' } });
    expect(self.statusCode).toBe(403);
    // Nor does a status sent along with an edit approve it.
    const sneaked = await call(app, 'PUT', url, {
      as: t.users.contributor,
      body: { answer: `${DRAFT} Really.`, status: 'approved', reviewState: 'approved' },
    });
    expect(sneaked.data).toMatchObject({ reviewState: 'drafted', reviewedAt: null });
    expect((await exported(t, batchId, 'format=csv')).body).not.toContain('FedRAMP');

    const approved = await call(app, 'POST', `${url}/review`, { as: t.users.manager, body: { action: 'approve' } });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.data).toMatchObject({ reviewState: 'approved', answerType: 'draft', answerOrigin: 'person' });
    const csv = await exported(t, batchId, 'format=csv');
    expect(csv.body).toContain(`${DRAFT} Really.`);
    expect(csv.body).not.toContain('Draft — not approved');
  });

  it('loses its approval when a contributor changes it again', async () => {
    const t = await createTenant(app);
    const { batchId, url } = await contributorDraft(t);
    await call(app, 'POST', `${url}/review`, { as: t.users.manager, body: { action: 'approve' } });
    const changed = await call(app, 'PUT', url, {
      as: t.users.contributor,
      body: { answer: 'Yes, and SOC 3 too (another unverified claim).' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.data).toMatchObject({ reviewState: 'drafted', answerType: 'draft', reviewedAt: null });
    expect((await exported(t, batchId, 'format=csv')).body).not.toContain('SOC 3');
  });

  it('is a draft even when a manager writes it, until it is approved', async () => {
    const t = await createTenant(app);
    const { batchId, url } = await contributorDraft(t);
    const byManager = await call(app, 'PUT', url, { as: t.users.manager, body: { answer: `${DRAFT} Checked.` } });
    expect(byManager.data).toMatchObject({ reviewState: 'drafted', answerType: 'draft', reviewedAt: null });
    expect((await exported(t, batchId, 'format=csv')).body).not.toContain(`${DRAFT} Checked.`);
    await call(app, 'POST', `${url}/review`, { as: t.users.manager, body: { action: 'approve' } });
    expect((await exported(t, batchId, 'format=csv')).body).toContain(`${DRAFT} Checked.`);
  });

  it("leaves the engine's answers exported as they were; a contributor submits them, a manager approves", async () => {
    const t = await createTenant(app);
    await createAnswer(app, t.users.admin, { question: MFA_Q, answer: MFA_A, tags: ['mfa'] });
    const created = await importCsv(app, t.users.contributor, `Question\n"${MFA_Q}"\n`, 'Acme review');
    const d = await waitForBatch(app, t.users.contributor, created.id);
    const url = `/api/assessments/${created.id}/questions/${d.questions[0]!.id}`;
    expect((await exported(t, created.id, 'format=csv')).body).toContain(MFA_A);
    const approve = await call(app, 'POST', `${url}/review`, { as: t.users.contributor, body: { action: 'approve' } });
    expect(approve.statusCode).toBe(403);
    const submitted = await call(app, 'POST', `${url}/review`, { as: t.users.contributor, body: { action: 'submit' } });
    expect(submitted.data).toMatchObject({ reviewState: 'in_review', answerOrigin: 'machine', confidence: 100 });
  });
});
