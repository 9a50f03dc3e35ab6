import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { Document, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { docxQuestionnaire, xlsOf } from './fixtures/questionnaire/intake';
import { readDocx } from '../server/ingest/questionnaire/read-docx';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createAnswer, createTenant, createTenantPair } from './helpers/factories';
import { expectRolePolicy } from './helpers/roles-matrix';
import { detail, importCsv, postMultipart, waitForBatch } from './helpers/assessments';
import { assessmentBatches, assessmentQuestions, qaEntries } from '../server/db/schema';
import { TOO_LONG } from '../server/worker/answer-question';
import { caiqWorkbook } from './fixtures/questionnaire/intake';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const MFA_Q = 'Is multi-factor authentication required for all employee access to production systems?';
const MFA_A = 'Yes. Every employee signs in through Okta with phishing-resistant MFA (FIDO2 security keys).';
const ISO_Q = 'Is the organization ISO 27001 certified?';
const ISO_A = 'Yes. We have held ISO/IEC 27001 certification since 2021; the certificate is renewed every three years.';

async function tenantWithLibrary() {
  const t = await createTenant(app);
  const mfa = await createAnswer(app, t.users.admin, { question: MFA_Q, answer: MFA_A, tags: ['mfa'] });
  const iso = await createAnswer(app, t.users.admin, { question: ISO_Q, answer: ISO_A, tags: ['iso27001'] });
  return { ...t, mfa, iso };
}

/** A questionnaire as customers send them: a title block, a header, a section row, a Yes/No dropdown column. */
async function questionnaireXlsx(questions: string[]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Security');
  ws.addRow(['Acme Corp — Vendor Security Assessment']);
  ws.mergeCells('A1:D1');
  ws.addRow(['Please answer every question.']);
  ws.addRow([]);
  ws.addRow(['ID', 'Question', 'Response', 'Comments']);
  ws.getRow(4).font = { bold: true };
  ws.addRow(['', 'Access Control']);
  questions.forEach((q, i) => ws.addRow([`AC-${String(i + 1).padStart(2, '0')}`, q, '', '']));
  for (let r = 6; r < 6 + questions.length; r++) {
    ws.getCell(`C${r}`).dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No,N/A"'] };
  }
  ws.getColumn(2).width = 70;
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe('POST /api/assessments/import-csv (the specification’s call)', () => {
  it('creates a batch whose questions the worker answers from the library, then completes it', async () => {
    const t = await tenantWithLibrary();
    const csv = `Question\n"${MFA_Q}"\n"Do you hold FedRAMP High authorization?"\n"${ISO_Q}"\n`;
    const created = await importCsv(app, t.users.contributor, csv);
    expect(created).toMatchObject({ totalQuestions: 3, estimatedTime: expect.stringMatching(/second|minute/) });

    const d = await waitForBatch(app, t.users.viewer, created.id);
    expect(d.batch).toMatchObject({ status: 'completed', processedQuestions: 3, error: null });
    expect(d.batch.completedAt).not.toBeNull();
    expect(d.progress).toEqual({ completed: 3, pending: 0, failed: 0, total: 3, percentage: 100 });
    const [mfa, fedramp, iso] = d.questions;
    expect(mfa).toMatchObject({ orderIndex: 1, status: 'completed', answerType: 'canonical', answer: MFA_A });
    expect(mfa?.sources[0]).toMatchObject({ type: 'library', canonicalAnswerId: t.mfa.id });
    expect(mfa?.sources[0]?.confidence).toBeGreaterThan(0);
    expect(fedramp).toMatchObject({ status: 'completed', answerType: 'unknown', confidence: 0 });
    expect(iso).toMatchObject({ answerType: 'canonical', answer: ISO_A });

    const list = await call(app, 'GET', '/api/assessments', { as: t.users.viewer });
    expect(list.data[0]).toMatchObject({
      id: created.id,
      name: 'Vendor review',
      status: 'completed',
      totalQuestions: 3,
      processedQuestions: 3,
      metadata: { customerName: 'Acme', assessmentType: 'SIG Lite', sourceFile: 'q.csv' },
      sourceFormat: 'csv',
      canFillOriginal: false,
    });
  });

  it('reads a header-less CSV as one question per row', async () => {
    const t = await createTenant(app);
    const created = await importCsv(app, t.users.admin, 'Do you encrypt backups?\nDo you run a bug bounty?\n');
    expect(created.totalQuestions).toBe(2);
    const d = await detail(app, t.users.admin, created.id);
    expect(d.questions.map((q) => q.question)).toEqual(['Do you encrypt backups?', 'Do you run a bug bounty?']);
  });

  it('refuses a missing name or content with the specification’s sentence, and a file without questions, creating nothing', async () => {
    const t = await createTenant(app);
    const as = t.users.admin;
    for (const body of [
      { csvContent: 'Question\nDo you encrypt data?', name: '  ' },
      { csvContent: '', name: 'Empty' },
      { name: 'No content' },
    ]) {
      const res = await call(app, 'POST', '/api/assessments/import-csv', { as, body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.data.error).toBe('Please provide assessment name and upload a CSV file.');
    }
    const none = await call(app, 'POST', '/api/assessments/import-csv', {
      as,
      body: { csvContent: '\n\n,,,\n', name: 'Blank' },
    });
    expect(none.statusCode).toBe(400);
    expect(none.data.error).toMatch(/No questions were found/);
    const list = await call(app, 'GET', '/api/assessments', { as });
    expect(list.data).toEqual([]);
  });

  it('refuses text-direction controls and line breaks in assessment and customer names, creating nothing', async () => {
    const t = await createTenant(app);
    const as = t.users.admin;
    const csvContent = 'Question\nDo you encrypt data at rest?\n';
    // U+202E makes "Acme‮gpj.exe" read "Acmeexe.jpg"; a line break lets a name start a paragraph of a mail.
    const bad = ['Acme\u202Egpj.exe', 'Acme\u2066x\u2069', 'Acme\u200F', 'Acme\u061C', 'Acme\n\nSign in at evil.test'];
    for (const name of bad) {
      const asName = await call(app, 'POST', '/api/assessments/import-csv', { as, body: { csvContent, name } });
      expect(asName.statusCode, JSON.stringify(name)).toBe(400);
      expect(asName.data.error).toBe(
        'Assessment name cannot contain line breaks, control characters or text-direction controls.',
      );
      const asCustomer = await call(app, 'POST', '/api/assessments/import-csv', {
        as,
        body: { csvContent, name: 'Review', metadata: { customerName: name } },
      });
      expect(asCustomer.statusCode, JSON.stringify(name)).toBe(400);
      expect(asCustomer.data.error).toBe(
        'Customer name cannot contain line breaks, control characters or text-direction controls.',
      );
      const file = { name: 'q.csv', bytes: csvContent };
      for (const fields of [{ name }, { name: 'Review', customerName: name }] as Array<Record<string, string>>) {
        const res = await postMultipart(app, '/api/assessments/import', as, fields, file);
        expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      }
    }
    expect((await call(app, 'GET', '/api/assessments', { as })).data).toEqual([]);
    // Right-to-left names themselves are welcome, and so are the joiners Persian spelling needs.
    const rtl = await call(app, 'POST', '/api/assessments/import-csv', {
      as,
      body: { csvContent, name: 'مراجعة الأمان', metadata: { customerName: 'شرکت\u200Cها' } },
    });
    expect(rtl.statusCode, rtl.body).toBe(201);
  });

  it('fails a question too long to answer, with the reason, and fails the batch when nothing could be answered', async () => {
    const t = await createTenant(app);
    const long = `Describe ${'your encryption programme in detail '.repeat(80)}?`;
    const created = await importCsv(app, t.users.admin, `Question\n"${long}"\n`);
    const d = await waitForBatch(app, t.users.admin, created.id);
    expect(d.questions[0]).toMatchObject({ status: 'failed', errorMessage: TOO_LONG, answer: null });
    expect(d.batch).toMatchObject({ status: 'failed', error: expect.stringMatching(/No question/) });
    expect(d.progress).toMatchObject({ failed: 1, completed: 0, percentage: 100 });
    // A reviewer answers it by hand: the batch has an answer after all.
    const put = await call(app, 'PUT', `/api/assessments/${created.id}/questions/${d.questions[0]?.id}`, {
      as: t.users.admin,
      body: { answer: 'AES-256 everywhere; keys in AWS KMS, rotated yearly.' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await detail(app, t.users.admin, created.id)).batch).toMatchObject({ status: 'completed', error: null });
  });
});

describe('importing a questionnaire file (preview, then import)', () => {
  it('previews the detected sheet, columns and questions, and imports them with their rows and dropdowns', async () => {
    const t = await tenantWithLibrary();
    const bytes = await questionnaireXlsx([MFA_Q, ISO_Q, 'Describe your incident response process.']);
    const file = { name: 'acme.xlsx', bytes };
    const preview = await postMultipart(app, '/api/assessments/preview', t.users.contributor, {}, file);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.data).toMatchObject({ fileName: 'acme.xlsx', format: 'xlsx', totalQuestions: 3 });
    const sheet = preview.data.sheets.find((s: { name: string }) => s.name === 'Security');
    expect(sheet.mapping).toMatchObject({ sheet: 'Security', questionColumn: 1, answerColumn: 2, commentsColumn: 3 });
    expect(preview.data.questions[0]).toMatchObject({
      question: MFA_Q,
      row: 6,
      controlId: 'AC-01',
      section: 'Access Control',
      allowedValues: ['Yes', 'No', 'N/A'],
    });
    expect(await call(app, 'GET', '/api/assessments', { as: t.users.admin }).then((r) => r.data)).toEqual([]);

    const res = await postMultipart(
      app,
      '/api/assessments/import',
      t.users.contributor,
      { name: 'Acme Q4', customerName: 'Acme', assessmentType: 'Custom' },
      file,
    );
    expect(res.statusCode, res.body).toBe(201);
    const d = await waitForBatch(app, t.users.contributor, res.data.id);
    expect(d.batch).toMatchObject({ status: 'completed' });
    expect(d.questions.map((q) => q.answerType)).toEqual(['canonical', 'canonical', 'unknown']);
  });

  it('uses the mapping the user chose in the preview instead of the detected one', async () => {
    const t = await createTenant(app);
    const bytes = await questionnaireXlsx(['Do you encrypt laptops at rest?', 'Do you review access quarterly?']);
    // The user picks Comments (D) as the column to fill and no id column.
    const chosen = {
      sheet: 'Security',
      headerRow: 3,
      questionColumn: 1,
      answerColumn: 3,
      commentsColumn: null,
      idColumn: null,
    };
    const mapping = JSON.stringify([chosen]);
    const res = await postMultipart(
      app,
      '/api/assessments/preview',
      t.users.admin,
      { mapping },
      { name: 'acme.xlsx', bytes },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.sheets.find((s: { name: string }) => s.name === 'Security').mapping).toEqual(chosen);
    expect(res.data.questions[0]).toMatchObject({ question: 'Do you encrypt laptops at rest?', controlId: null });
    const nonsense = JSON.stringify([{ ...chosen, sheet: 'Nope' }]);
    const bad = await postMultipart(
      app,
      '/api/assessments/preview',
      t.users.admin,
      { mapping: nonsense },
      { name: 'acme.xlsx', bytes },
    );
    expect(bad.statusCode).toBe(400);
  });

  it('refuses files that are not questionnaires with a clear error, storing and creating nothing', async () => {
    const t = await createTenant(app);
    const as = t.users.admin;
    const cases: Array<[string, Uint8Array | string, number, RegExp]> = [
      ['empty.csv', '', 400, /empty/i],
      ['fake.xlsx', '%PDF-1.7 not a workbook at all', 400, /./],
      ['corrupt.xlsx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]), 422, /damaged/],
      ['notes.csv', 'hello\n', 400, /No questions were found/],
    ];
    for (const [name, bytes, status, message] of cases) {
      const res = await postMultipart(app, '/api/assessments/import', as, { name: 'Bad' }, { name, bytes });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      expect(res.data.error, name).toMatch(message);
    }
    const noFile = await postMultipart(app, '/api/assessments/import', as, { name: 'No file' });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.data.error).toBe('Please select a file to import');
    const badMapping = await postMultipart(
      app,
      '/api/assessments/import',
      as,
      { name: 'x', mapping: '{not json' },
      { name: 'q.csv', bytes: 'Question\nDo you encrypt data at rest?\n' },
    );
    expect(badMapping.statusCode).toBe(400);
    expect(badMapping.data.error).toBe('mapping must be JSON');
    const notMultipart = await call(app, 'POST', '/api/assessments/import', { as, body: { name: 'x' } });
    expect(notMultipart.statusCode).toBe(400);
    expect((await call(app, 'GET', '/api/assessments', { as })).data).toEqual([]);
    const [{ n }] = (await app.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(assessmentBatches)
      .where(eq(assessmentBatches.organizationId, t.admin.organizationId))) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('POST /api/import-qa (the Ask screen) needs a customer name and ties the assessment to the chat', async () => {
    const t = await createTenant(app);
    const as = t.users.contributor;
    const file = { name: 'q.csv', bytes: 'Question\nDo you encrypt data at rest?\n' };
    const missing = await postMultipart(app, '/api/import-qa', as, {}, file);
    expect(missing.statusCode).toBe(400);
    expect(missing.data.error).toBe('Please enter a customer/account name');
    const session = await call(app, 'POST', '/api/qa/sessions', {
      as,
      body: { title: 'Bulk Assessment - Globex', customerName: 'Globex' },
    });
    const res = await postMultipart(
      app,
      '/api/import-qa',
      as,
      { customerName: 'Globex', sessionId: session.data.id },
      file,
    );
    expect(res.statusCode, res.body).toBe(201);
    const batch = await call(app, 'GET', `/api/assessments/${res.data.id}/batch`, { as });
    expect(batch.data).toMatchObject({
      sessionId: session.data.id,
      metadata: { customerName: 'Globex', sourceFile: 'q.csv' },
    });
    // Its answers are recorded in that chat, so Chat History shows them under the session.
    await waitForBatch(app, as, res.data.id);
    const recorded = await app.database.db.select().from(qaEntries).where(eq(qaEntries.sessionId, session.data.id));
    expect(recorded.map((e) => [e.question, e.answerType, e.userId])).toEqual([
      ['Do you encrypt data at rest?', 'unknown', as.id],
    ]);
    // Someone else's chat is not yours to attach to.
    const other = await postMultipart(
      app,
      '/api/import-qa',
      t.users.manager,
      { customerName: 'Globex', sessionId: session.data.id },
      file,
    );
    expect(other.statusCode).toBe(404);
    // Nor is a chat that already holds questions or an assessment: they would count as the assessment's.
    const again = await postMultipart(
      app,
      '/api/import-qa',
      as,
      { customerName: 'Globex', sessionId: session.data.id },
      file,
    );
    expect(again.statusCode).toBe(409);
    expect(again.data.error).toBe('This chat already has questions. Start the bulk assessment from a new chat.');
    const chat = await call(app, 'POST', '/api/qa/sessions', { as, body: { title: 'Encryption' } });
    await call(app, 'POST', '/api/qa/ask', {
      as,
      body: { question: 'Do you encrypt backups?', sessionId: chat.data.id },
    });
    const asked = await postMultipart(
      app,
      '/api/import-qa',
      as,
      { customerName: 'Globex', sessionId: chat.data.id },
      file,
    );
    expect(asked.statusCode).toBe(409);
  });
});

describe('reviewing answers', () => {
  it('edits and approves an answer; regenerating gives the engine’s answer back', async () => {
    const t = await tenantWithLibrary();
    const created = await importCsv(app, t.users.contributor, `Question\n"${MFA_Q}"\n"Do you run a bug bounty?"\n`);
    const d = await waitForBatch(app, t.users.contributor, created.id);
    const [mfa, bounty] = d.questions;
    const base = `/api/assessments/${created.id}/questions`;

    const edited = await call(app, 'PUT', `${base}/${bounty?.id}`, {
      as: t.users.contributor,
      body: { answer: 'No. We run a private programme with HackerOne instead.' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.data).toMatchObject({
      answerType: 'draft',
      answerOrigin: 'person',
      edited: true,
      status: 'completed',
      reviewState: 'drafted',
    });
    const reworded = await call(app, 'PUT', `${base}/${mfa?.id}`, {
      as: t.users.contributor,
      body: { answer: `${MFA_A} SMS codes are not accepted.` },
    });
    // The library's verbatim answer, reworded by a person, is theirs: a draft.
    expect(reworded.data).toMatchObject({ answerType: 'draft', edited: true });
    // A person's wording goes to a customer only once someone who may approve answers accepted it.
    const selfApproved = await call(app, 'POST', `${base}/${mfa?.id}/review`, {
      as: t.users.contributor,
      body: { action: 'approve' },
    });
    expect(selfApproved.statusCode).toBe(403);
    const accepted = await call(app, 'POST', `${base}/${mfa?.id}/review`, {
      as: t.users.manager,
      body: { action: 'approve' },
    });
    expect(accepted.data).toMatchObject({ reviewState: 'approved', answer: `${MFA_A} SMS codes are not accepted.` });
    expect(accepted.data.reviewedAt).not.toBeNull();

    const regen = await call(app, 'POST', `${base}/${bounty?.id}/regenerate`, { as: t.users.contributor });
    expect(regen.statusCode).toBe(200);
    const again = await waitForBatch(app, t.users.contributor, created.id);
    expect(again.questions[1]).toMatchObject({ answerType: 'unknown', edited: false, reviewState: 'needs_answer' });
    expect(again.questions[0]).toMatchObject({ reviewState: 'approved' });
  });

  it('refuses an empty answer, an empty body, approving an unanswered question, and another batch’s question', async () => {
    const t = await createTenant(app);
    const long = `Describe ${'your key management in detail '.repeat(90)}?`;
    const a = await importCsv(app, t.users.admin, `Question\n"${long}"\n`);
    const b = await importCsv(app, t.users.admin, 'Question\nDo you encrypt data?\n');
    const da = await waitForBatch(app, t.users.admin, a.id);
    const db = await waitForBatch(app, t.users.admin, b.id);
    const qa = da.questions[0]?.id;
    const url = `/api/assessments/${a.id}/questions/${qa}`;
    for (const body of [{ answer: '   ' }, {}, { status: 'approved' }]) {
      const res = await call(app, 'PUT', url, { as: t.users.admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const accept = await call(app, 'POST', `${url}/review`, { as: t.users.admin, body: { action: 'approve' } });
    expect(accept.statusCode).toBe(409);
    expect(accept.data.error).toMatch(/needs answer/);
    const crossed = await call(app, 'PUT', `/api/assessments/${a.id}/questions/${db.questions[0]?.id}`, {
      as: t.users.admin,
      body: { answer: 'Yes, always.' },
    });
    expect(crossed.statusCode).toBe(404);
    expect((await detail(app, t.users.admin, a.id)).questions[0]).toMatchObject({ status: 'failed', answer: null });
  });

  it('retries failed questions', async () => {
    const t = await createTenant(app);
    const created = await importCsv(app, t.users.admin, 'Question\nDo you encrypt data?\n');
    await waitForBatch(app, t.users.admin, created.id);
    // A passing fault left this one failed (set directly: the engine does not fail on its own).
    await app.database.db
      .update(assessmentQuestions)
      .set({ status: 'failed', errorMessage: 'The database was unavailable', answer: null })
      .where(eq(assessmentQuestions.batchId, created.id));
    const res = await call(app, 'POST', `/api/assessments/${created.id}/retry-failed`, { as: t.users.admin });
    expect(res.data).toEqual({ retried: 1 });
    const d = await waitForBatch(app, t.users.admin, created.id);
    expect(d.questions[0]).toMatchObject({ status: 'completed', errorMessage: null, answerType: 'unknown' });
  });

  it('saves a reviewed answer to the library: approved for a manager, a suggestion for a contributor', async () => {
    const t = await createTenant(app);
    const created = await importCsv(
      app,
      t.users.admin,
      'Question\nDo you run a public bug bounty programme?\nDo you perform annual DR tests?\n',
    );
    const d = await waitForBatch(app, t.users.admin, created.id);
    const base = `/api/assessments/${created.id}/questions`;
    const [q1, q2] = d.questions;
    const unknown = await call(app, 'POST', `${base}/${q1?.id}/library`, { as: t.users.manager, body: {} });
    expect(unknown.statusCode).toBe(400);
    // Nor can 'Needs Review' be approved as if it were an answer.
    const approvePlaceholder = await call(app, 'POST', `${base}/${q1?.id}/review`, {
      as: t.users.manager,
      body: { action: 'approve' },
    });
    expect(approvePlaceholder.statusCode).toBe(409);
    for (const q of [q1, q2]) {
      await call(app, 'PUT', `${base}/${q?.id}`, {
        as: t.users.admin,
        body: { answer: 'Yes. We run it with HackerOne and publish the scope on our trust page.' },
      });
    }
    const byManager = await call(app, 'POST', `${base}/${q1?.id}/library`, {
      as: t.users.manager,
      body: { tags: ['bug bounty'] },
    });
    expect(byManager.statusCode, byManager.body).toBe(201);
    expect(byManager.data).toMatchObject({ status: 'approved', suggestionId: null });
    const byContributor = await call(app, 'POST', `${base}/${q2?.id}/library`, { as: t.users.contributor, body: {} });
    expect(byContributor.data).toMatchObject({ status: 'pending', canonicalAnswerId: null });
    expect(byContributor.data.suggestionId).toEqual(expect.any(String));
    const entry = await call(app, 'GET', `/api/canonical-answers/${byManager.data.canonicalAnswerId}`, {
      as: t.users.admin,
    });
    expect(entry.data).toMatchObject({ question: 'Do you run a public bug bounty programme?', tags: ['bug bounty'] });
    // Saving again (a second click) answers with what the first save made: no error, no second copy.
    const twice = await call(app, 'POST', `${base}/${q1?.id}/library`, { as: t.users.manager, body: {} });
    expect(twice.statusCode).toBe(201);
    expect(twice.data).toEqual(byManager.data);
    const again = await call(app, 'POST', `${base}/${q2?.id}/library`, { as: t.users.contributor, body: {} });
    expect(again.data).toEqual(byContributor.data);
    const shown = await detail(app, t.users.contributor, created.id);
    expect(shown.questions.map((q) => q.savedToLibrary?.status)).toEqual(['approved', 'pending']);
  });

  it('marks answers whose library entry changed afterwards as "source changed"', async () => {
    const t = await tenantWithLibrary();
    const created = await importCsv(app, t.users.admin, `Question\n"${MFA_Q}"\n"${ISO_Q}"\n`);
    const before = await waitForBatch(app, t.users.admin, created.id);
    expect(before.questions.map((q) => q.sourceChanged)).toEqual([false, false]);
    const upd = await call(app, 'PUT', `/api/canonical-answers/${t.mfa.id}`, {
      as: t.users.admin,
      body: { answer: 'Yes. Employees use FIDO2 security keys through Okta; SMS codes are not allowed.' },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    const after = await detail(app, t.users.admin, created.id);
    expect(after.questions.map((q) => q.sourceChanged)).toEqual([true, false]);
    await call(app, 'POST', `/api/assessments/${created.id}/questions/${after.questions[0]?.id}/regenerate`, {
      as: t.users.admin,
    });
    const fresh = await waitForBatch(app, t.users.admin, created.id);
    expect(fresh.questions[0]).toMatchObject({ sourceChanged: false, answer: expect.stringContaining('SMS') });
  });

  it("keeps a completed assessment's completion time when one of its answers is regenerated", async () => {
    const t = await tenantWithLibrary();
    const created = await importCsv(app, t.users.admin, `Question\n"${MFA_Q}"\n"${ISO_Q}"\n`);
    const done = await waitForBatch(app, t.users.admin, created.id);
    expect(done.batch).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
    const regen = await call(
      app,
      'POST',
      `/api/assessments/${created.id}/questions/${done.questions[0]?.id}/regenerate`,
      {
        as: t.users.admin,
      },
    );
    expect(regen.statusCode, regen.body).toBe(200);
    expect(['pending', 'processing']).toContain((regen.json() as { status: string }).status);
    const again = await waitForBatch(app, t.users.admin, created.id);
    expect(again.batch.status).toBe('completed');
    expect(again.batch.completedAt).toBe(done.batch.completedAt);
  });

  it('flags contradictory answers about the same control', async () => {
    const t = await createTenant(app);
    const created = await importCsv(
      app,
      t.users.admin,
      'Question\nIs MFA enforced for remote access?\nDo you encrypt backups?\nIs multi-factor authentication enforced for all remote access?\n',
    );
    const d = await waitForBatch(app, t.users.admin, created.id);
    const [q1, q2, q3] = d.questions;
    const put = (id: string | undefined, answer: string) =>
      call(app, 'PUT', `/api/assessments/${created.id}/questions/${id}`, { as: t.users.admin, body: { answer } });
    await put(q1?.id, 'Yes. Okta enforces MFA on the VPN and every remote login.');
    await put(q2?.id, 'Yes. Backups are encrypted with AES-256.');
    await put(q3?.id, 'No. Only administrators must use MFA.');
    const after = await detail(app, t.users.admin, created.id);
    expect(after.questions.map((q) => q.conflictsWith)).toEqual([[3], [], [1]]);
  });
});

describe('exports', () => {
  it('JSON as the specification says, and a formula-safe CSV named after the batch', async () => {
    const t = await tenantWithLibrary();
    const created = await importCsv(
      app,
      t.users.admin,
      `Question\n"${MFA_Q}"\n"=HYPERLINK(""http://x"")"\n`,
      'Acme: Q4/2026',
    );
    await waitForBatch(app, t.users.admin, created.id);
    const json = await call(app, 'GET', `/api/assessments/${created.id}/export`, { as: t.users.viewer });
    expect(json.data.batchName).toBe('Acme: Q4/2026');
    expect(json.data.questions[0]).toMatchObject({ question: MFA_Q, answer: MFA_A, answerType: 'canonical' });
    const csv = await call(app, 'GET', `/api/assessments/${created.id}/export?format=csv`, { as: t.users.viewer });
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toContain(
      'filename="Acme Q4 2026 - all answers including unreviewed.csv"',
    );
    expect(csv.body).toContain("'=HYPERLINK");
    expect(csv.body).toContain(MFA_A);
    // A 'Needs Review' placeholder is not an answer to hand a customer.
    expect(csv.body).not.toContain('needs review by someone');
    const bad = await call(app, 'GET', `/api/assessments/${created.id}/export?format=pdf`, { as: t.users.viewer });
    expect(bad.statusCode).toBe(400);
  });

  it('hands back the original workbook with the answers in its answer column', async () => {
    const t = await tenantWithLibrary();
    const bytes = await questionnaireXlsx([MFA_Q, 'Do you hold FedRAMP High authorization?', ISO_Q]);
    const res = await postMultipart(
      app,
      '/api/assessments/import',
      t.users.admin,
      { name: 'Acme' },
      { name: 'acme.xlsx', bytes },
    );
    await waitForBatch(app, t.users.admin, res.data.id);
    const out = await app.inject({
      method: 'GET',
      url: `/api/assessments/${res.data.id}/export?format=xlsx`,
      headers: { cookie: t.users.admin.cookie },
    });
    expect(out.statusCode).toBe(200);
    expect(out.headers['content-disposition']).toContain('filename="Acme - all answers including unreviewed.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(out.rawPayload as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('Security');
    expect(ws?.getCell('A1').value).toBe('Acme Corp — Vendor Security Assessment');
    expect(ws?.getCell('C6').value).toBe('Yes');
    expect(String(ws?.getCell('D6').value)).toContain('FIDO2');
    // Not answered: left empty for a person, not filled with 'Needs Review'.
    expect(ws?.getCell('C7').value || null).toBeNull();
    expect(ws?.getCell('C8').value).toBe('Yes');
    expect(ws?.getCell('C6').dataValidation).toMatchObject({ type: 'list', formulae: ['"Yes,No,N/A"'] });
    // Approved only is another file, and says so; the customer's workbook keeps its extension.
    const approvedOnly = await app.inject({
      method: 'GET',
      url: `/api/assessments/${res.data.id}/export?format=original&scope=approved`,
      headers: { cookie: t.users.admin.cookie },
    });
    expect(approvedOnly.statusCode, approvedOnly.body).toBe(200);
    expect(approvedOnly.headers['content-disposition']).toContain('filename="Acme - approved answers only.xlsx"');
  });
});

describe("exports of the customer's own workbook", () => {
  const ENCRYPTED = 'Yes, all data at rest is encrypted with AES-256.';
  const exportAs = (cookie: string, id: string, query: string) =>
    app.inject({ method: 'GET', url: `/api/assessments/${id}/export?${query}`, headers: { cookie } });
  const exportXlsx = (cookie: string, id: string, query = '') => exportAs(cookie, id, `format=xlsx${query}`);

  it('fill a sheet without a header row, adding the answer column beside the questions', async () => {
    const t = await createTenant(app);
    await createAnswer(app, t.users.admin, { question: 'Do you encrypt data at rest?', answer: ENCRYPTED });
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Q');
    for (const q of ['Do you encrypt data at rest?', 'Do you run annual penetration tests?', 'Is MFA enforced?'])
      ws.addRow([q]);
    const res = await postMultipart(
      app,
      '/api/assessments/import',
      t.users.admin,
      { name: 'Headerless' },
      { name: 'q.xlsx', bytes: new Uint8Array(await wb.xlsx.writeBuffer()) },
    );
    expect(res.statusCode, res.body).toBe(201);
    const d = await waitForBatch(app, t.users.admin, res.data.id);
    expect(d.batch).toMatchObject({ canFillOriginal: true });
    const filled = await exportXlsx(t.users.admin.cookie, res.data.id);
    expect(filled.statusCode, filled.body).toBe(200);
    const out = new ExcelJS.Workbook();
    await out.xlsx.load(filled.rawPayload as unknown as ArrayBuffer);
    expect(out.worksheets.map((s) => s.name)).toEqual(['Q']);
    expect(out.worksheets[0]?.getCell('A1').value).toBe('Do you encrypt data at rest?');
    expect(out.worksheets[0]?.getCell('B1').value).toBe(ENCRYPTED);
  });

  it('say why when the stored original is gone, and give the new workbook only when asked for it', async () => {
    const t = await createTenant(app);
    const normal = await postMultipart(
      app,
      '/api/assessments/import',
      t.users.admin,
      { name: 'Gone' },
      { name: 'q.xlsx', bytes: await questionnaireXlsx(['Do you encrypt data at rest?']) },
    );
    await waitForBatch(app, t.users.admin, normal.data.id);
    const [row] = await app.database.db
      .select()
      .from(assessmentBatches)
      .where(eq(assessmentBatches.id, normal.data.id));
    await app.deps.storage.delete(row?.storageKey ?? '');
    const refused = await exportXlsx(t.users.admin.cookie, normal.data.id);
    expect(refused.statusCode).toBe(422);
    // A refused export is no more cacheable than a file.
    expect(refused.headers['cache-control']).toBe('private, no-store');
    expect(refused.json()).toMatchObject({
      code: 'original_missing',
      error: expect.stringMatching(/no longer stored/),
    });
    const generic = await exportXlsx(t.users.admin.cookie, normal.data.id, '&generic=1');
    expect(generic.statusCode).toBe(200);
    const out = new ExcelJS.Workbook();
    await out.xlsx.load(generic.rawPayload as unknown as ArrayBuffer);
    const texts: unknown[] = [];
    out.worksheets[0]?.eachRow((r) => r.eachCell((c) => texts.push(c.value)));
    expect(texts).toContain('Do you encrypt data at rest?');
  });

  it('hand back a CSV in its own columns and a Word file with answers in its answer cells', async () => {
    const t = await createTenant(app);
    await createAnswer(app, t.users.admin, { question: 'Do you encrypt data at rest?', answer: ENCRYPTED });
    const csv = 'Question ID;Question Text;Type\r\nE-1;Do you encrypt data at rest?;Yes,No\r\n';
    const res = await postMultipart(
      app,
      '/api/assessments/import',
      t.users.admin,
      { name: 'From CSV' },
      { name: 'caiq.csv', bytes: new TextEncoder().encode(csv) },
    );
    expect(res.statusCode, res.body).toBe(201);
    const d = await waitForBatch(app, t.users.admin, res.data.id);
    expect(d.batch).toMatchObject({ canFillOriginal: false, originalExport: 'csv' });
    const out = await exportAs(t.users.admin.cookie, res.data.id, 'format=original');
    expect(out.statusCode, out.body).toBe(200);
    expect(out.headers['content-disposition']).toContain('filename="From CSV - all answers including unreviewed.csv"');
    expect(out.body).toBe(
      `Question ID;Question Text;Type;Response\r\nE-1;Do you encrypt data at rest?;Yes,No;${ENCRYPTED}\r\n`,
    );

    const BACKUPS = 'Yes, backups run nightly and are restored in a test every quarter.';
    await createAnswer(app, t.users.admin, { question: 'Is data backed up daily?', answer: BACKUPS });
    const word = await postMultipart(
      app,
      '/api/assessments/import',
      t.users.admin,
      { name: 'From Word' },
      { name: 'q.docx', bytes: await docxQuestionnaire() },
    );
    expect(word.statusCode, word.body).toBe(201);
    const wd = await waitForBatch(app, t.users.admin, word.data.id);
    expect(wd.batch).toMatchObject({ canFillOriginal: false, originalExport: 'docx' });
    const filled = await exportAs(t.users.admin.cookie, word.data.id, 'format=original');
    expect(filled.statusCode, filled.body).toBe(200);
    expect(filled.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(filled.headers['content-disposition']).toContain('From Word - all answers including unreviewed.docx');
    const { sheets } = await readDocx(new Uint8Array(filled.rawPayload));
    expect(sheets.map((s) => s.rows)).toEqual([
      [
        ['No.', 'Question', 'Supplier Response'],
        ['Governance'],
        ['G.1', 'Do you have an information security policy approved by management?', 'Yes'],
        ['', 'Describe how often the policy is reviewed.'],
      ],
      [
        ['Question', 'Answer'],
        ['Is data backed up daily?', BACKUPS],
      ],
    ]);

    // A table with only questions: a Word table is never given a new column, so this one cannot be filled.
    const questionsOnly = new Document({
      sections: [
        {
          children: [
            new Table({
              rows: ['Question', 'Is data backed up daily?', 'Do you encrypt data at rest?'].map(
                (text) => new TableRow({ children: [new TableCell({ children: [new Paragraph(text)] })] }),
              ),
            }),
          ],
        },
      ],
    });
    const bare = await postMultipart(
      app,
      '/api/assessments/import',
      t.users.admin,
      { name: 'Questions only' },
      { name: 'bare.docx', bytes: new Uint8Array(await Packer.toBuffer(questionsOnly)) },
    );
    expect(bare.statusCode, bare.body).toBe(201);
    const bd = await waitForBatch(app, t.users.admin, bare.data.id);
    expect(bd.batch).toMatchObject({ originalExport: null });
    const refused = await exportAs(t.users.admin.cookie, bare.data.id, 'format=original');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'original_unsupported',
      error: 'This Word questionnaire has no answer column to write into; export Excel or CSV instead.',
    });
  });

  it('hand back a legacy .xls as .xlsx with the same sheets and the answers in its answer column', async () => {
    const t = await createTenant(app);
    await createAnswer(app, t.users.admin, { question: 'Do you encrypt data at rest?', answer: ENCRYPTED });
    const res = await postMultipart(
      app,
      '/api/assessments/import',
      t.users.admin,
      { name: 'Legacy' },
      {
        name: 'legacy.xls',
        bytes: xlsOf([
          ['ID', 'Question', 'Response'],
          ['E-1', 'Do you encrypt data at rest?', ''],
          ['E-2', 'Do you rotate keys yearly?', ''],
        ]),
      },
    );
    expect(res.statusCode, res.body).toBe(201);
    await waitForBatch(app, t.users.admin, res.data.id);
    const filled = await exportXlsx(t.users.admin.cookie, res.data.id);
    expect(filled.statusCode, filled.body).toBe(200);
    const out = new ExcelJS.Workbook();
    await out.xlsx.load(filled.rawPayload as unknown as ArrayBuffer);
    expect(out.worksheets.map((s) => s.name)).toEqual(['Questions']);
    expect(out.worksheets[0]?.getCell('B2').value).toBe('Do you encrypt data at rest?');
    expect(out.worksheets[0]?.getCell('C2').value).toBe(ENCRYPTED);
  });
});

describe('exports of a CAIQ v3 workbook', () => {
  const sast =
    'Do you use an automated source code analysis tool to detect security defects in code prior to production?';
  const answer = 'Yes. Semgrep and CodeQL run on every pull request and block merging on high-severity findings.';

  async function exportedCaiq(fields: Record<string, string>) {
    const t = await createTenant(app);
    await createAnswer(app, t.users.admin, { question: sast, answer });
    const res = await postMultipart(
      app,
      '/api/assessments/import',
      t.users.admin,
      { name: 'CAIQ', ...fields },
      { name: 'caiq.xlsx', bytes: await caiqWorkbook() },
    );
    expect(res.statusCode, res.body).toBe(201);
    await waitForBatch(app, t.users.admin, res.data.id);
    const out = await app.inject({
      method: 'GET',
      url: `/api/assessments/${res.data.id}/export?format=xlsx`,
      headers: { cookie: t.users.admin.cookie },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(out.rawPayload as unknown as ArrayBuffer);
    const detail = await waitForBatch(app, t.users.admin, res.data.id);
    return { ws: wb.getWorksheet('CAIQ v3.0.1'), detail };
  }

  it("leave the customer's X marks alone and keep a question the customer already answered, notes included", async () => {
    const { ws, detail } = await exportedCaiq({});
    // The customer said No where the library says Yes: the review screen shows it.
    const questions = detail.questions as unknown as { row: number | null }[];
    expect(questions.find((q) => q.row === 6)).toMatchObject({
      existingAnswer: 'No',
      disagreesWithCustomer: true,
    });
    expect(ws?.getCell('F5').value).toBe('X');
    expect(ws?.getCell('G6').value).toBe('X');
    expect(ws?.getCell('F6').value || null).toBeNull();
    expect(ws?.getCell('I6').value).toBe('Manual review only');
  });

  it("write a confident answer into Notes over the customer's when the import chose to replace pre-filled answers", async () => {
    const { ws } = await exportedCaiq({ prefilledAnswers: 'replace' });
    expect(ws?.getCell('G6').value).toBe('X');
    expect(ws?.getCell('I6').value).toBe(answer);
  });
});

describe('deleting', () => {
  it('removes the batch, its questions and its stored file; only managers and admins may', async () => {
    const t = await createTenant(app);
    await expectRolePolicy(app, t, 'assessments:delete', async () => {
      const created = await importCsv(app, t.users.admin, 'Question\nDo you encrypt data?\n');
      return { method: 'DELETE', url: `/api/assessments/${created.id}` };
    });
    const res = await postMultipart(
      app,
      '/api/assessments/import',
      t.users.admin,
      { name: 'x' },
      {
        name: 'q.xlsx',
        bytes: await questionnaireXlsx(['Do you encrypt data at rest?']),
      },
    );
    const [row] = await app.database.db.select().from(assessmentBatches).where(eq(assessmentBatches.id, res.data.id));
    expect(row?.storageKey).toBeTruthy();
    await call(app, 'DELETE', `/api/assessments/${res.data.id}`, { as: t.users.admin });
    expect(await app.deps.storage.head(row?.storageKey ?? '')).toBeNull();
    const left = await app.database.db
      .select()
      .from(assessmentQuestions)
      .where(eq(assessmentQuestions.batchId, res.data.id));
    expect(left).toEqual([]);
  });
});

describe('roles and tenants', () => {
  it('viewers read, contributors run, nobody sees another organization’s assessments', async () => {
    const { a, b } = await createTenantPair(app);
    await expectRolePolicy(app, a, 'assessments:run', () => ({
      method: 'POST',
      url: '/api/assessments/import-csv',
      body: { csvContent: 'Question\nDo you encrypt data?', name: 'Roles' },
    }));
    await expectRolePolicy(app, a, 'assessments:read', () => ({ method: 'GET', url: '/api/assessments' }));
    const created = await importCsv(app, a.users.admin, 'Question\nDo you encrypt data?\n');
    const d = await waitForBatch(app, a.users.admin, created.id);
    const qid = d.questions[0]?.id;
    const intruder = b.users.admin;
    for (const [method, url, body] of [
      ['GET', `/api/assessments/${created.id}`],
      ['GET', `/api/assessments/${created.id}/batch`],
      ['GET', `/api/assessments/${created.id}/export?format=csv`],
      ['DELETE', `/api/assessments/${created.id}`],
      ['PUT', `/api/assessments/${created.id}/questions/${qid}`, { answer: 'Hacked answer text.' }],
      ['POST', `/api/assessments/${created.id}/questions/${qid}/regenerate`],
      ['POST', `/api/assessments/${created.id}/questions/${qid}/library`, {}],
      ['POST', `/api/assessments/${created.id}/retry-failed`],
    ] as const) {
      const res = await call(app, method, url, { as: intruder, body });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(app, 'GET', '/api/assessments', { as: intruder })).data).toEqual([]);
    expect((await detail(app, a.users.admin, created.id)).questions[0]?.answer).not.toBe('Hacked answer text.');
    const badId = await call(app, 'GET', '/api/assessments/not-a-uuid', { as: a.users.admin });
    expect(badId.statusCode).toBe(400);
  });
});
