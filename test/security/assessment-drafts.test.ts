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
    expect(d.questions[0]).toMatchObject({ answerType: 'draft', status: 'completed', edited: true, answer: DRAFT });
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
    for (const body of [{ status: 'approved' }, { answer: `${DRAFT} Really.`, status: 'approved' }]) {
      const self = await call(app, 'PUT', url, { as: t.users.contributor, body });
      expect(self.statusCode, JSON.stringify(body)).toBe(403);
    }
    expect((await exported(t, batchId, 'format=csv')).body).not.toContain('FedRAMP');

    const approved = await call(app, 'PUT', url, { as: t.users.manager, body: { status: 'approved' } });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.data).toMatchObject({ status: 'approved', answerType: 'draft' });
    const csv = await exported(t, batchId, 'format=csv');
    expect(csv.body).toContain(DRAFT);
    expect(csv.body).not.toContain('Draft — not approved');
  });

  it('loses its approval when a contributor changes it again', async () => {
    const t = await createTenant(app);
    const { batchId, url } = await contributorDraft(t);
    await call(app, 'PUT', url, { as: t.users.manager, body: { status: 'approved' } });
    const changed = await call(app, 'PUT', url, {
      as: t.users.contributor,
      body: { answer: 'Yes, and SOC 3 too (another unverified claim).' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.data).toMatchObject({ status: 'completed', answerType: 'draft', reviewedAt: null });
    expect((await exported(t, batchId, 'format=csv')).body).not.toContain('SOC 3');
  });

  it('is approved as written when a manager writes it, as a library entry would be', async () => {
    const t = await createTenant(app);
    const { batchId, url } = await contributorDraft(t);
    const byManager = await call(app, 'PUT', url, { as: t.users.manager, body: { answer: `${DRAFT} Checked.` } });
    expect(byManager.data).toMatchObject({ status: 'approved', answerType: 'draft' });
    expect(byManager.data.reviewedAt).not.toBeNull();
    expect((await exported(t, batchId, 'format=csv')).body).toContain(`${DRAFT} Checked.`);
  });

  it("leaves the engine's answers as they were: a contributor may still accept those", async () => {
    const t = await createTenant(app);
    await createAnswer(app, t.users.admin, { question: MFA_Q, answer: MFA_A, tags: ['mfa'] });
    const created = await importCsv(app, t.users.contributor, `Question\n"${MFA_Q}"\n`, 'Acme review');
    const d = await waitForBatch(app, t.users.contributor, created.id);
    const url = `/api/assessments/${created.id}/questions/${d.questions[0]!.id}`;
    const accepted = await call(app, 'PUT', url, { as: t.users.contributor, body: { status: 'approved' } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await exported(t, created.id, 'format=csv')).body).toContain(MFA_A);
  });
});
