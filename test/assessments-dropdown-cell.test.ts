import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call, type Session } from './helpers/api';
import { postMultipart, waitForBatch } from './helpers/assessments';
import { createAnswer, createTenantPair, type Tenant } from './helpers/factories';

// What the review card says the customer's dropdown cell gets must be what the export writes: the value the answer
// implies, or the one a person picked from the cell's own list, and nothing else.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const ENCRYPTION_Q = 'Is customer data encrypted at rest in every datastore?';
const ENCRYPTION_A = 'Yes. Every datastore volume is encrypted with AES-256 and keys held in a cloud KMS.';
const ACCESS_Q = 'How are accounts for production systems requested and approved?';
const ACCESS_A = 'Access is role-based: the system owner approves each request in the ticketing system.';
const UNKNOWN_Q = 'Do you operate delivery drones over customer sites?';

async function workbook(customerAnswers: string[] = []): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Security');
  ws.addRow(['ID', 'Question', 'Response', 'Comments']);
  [ENCRYPTION_Q, ACCESS_Q, UNKNOWN_Q].forEach((q, i) =>
    ws.addRow([`SC-0${String(i + 1)}`, q, customerAnswers[i] ?? '', '']),
  );
  for (let r = 2; r <= 4; r++) {
    ws.getCell(`C${String(r)}`).dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No,N/A"'] };
  }
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

type Cell = { allowed: string[]; value: string | null; picked: boolean; reason: string | null };
type Question = { id: string; question: string; reviewState: string; dropdownCell: Cell | null };

async function imported(t: Tenant, customerAnswers: string[] = []) {
  await createAnswer(app, t.users.admin, { question: ENCRYPTION_Q, answer: ENCRYPTION_A });
  await createAnswer(app, t.users.admin, { question: ACCESS_Q, answer: ACCESS_A });
  const res = await postMultipart(
    app,
    '/api/assessments/import',
    t.users.contributor,
    { name: 'Acme' },
    { name: 'acme.xlsx', bytes: await workbook(customerAnswers) },
  );
  expect(res.statusCode, res.body).toBe(201);
  const detail = await waitForBatch(app, t.users.contributor, res.data.id);
  const questions = detail.questions as unknown as Question[];
  const byText = (text: string) => {
    const q = questions.find((x) => x.question === text);
    if (!q) throw new Error(`no question ${text}`);
    return q;
  };
  return {
    id: res.data.id as string,
    encryption: byText(ENCRYPTION_Q),
    access: byText(ACCESS_Q),
    unknown: byText(UNKNOWN_Q),
  };
}

const choose = (as: Session, batchId: string, qid: string, value: unknown) =>
  call(app, 'PUT', `/api/assessments/${batchId}/questions/${qid}/choice`, { as, body: { value } });

async function exportedCells(as: Session, batchId: string): Promise<Record<string, string>> {
  const out = await app.inject({
    method: 'GET',
    url: `/api/assessments/${batchId}/export?format=original`,
    headers: { cookie: as.cookie },
  });
  expect(out.statusCode, out.body).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(out.rawPayload as unknown as ArrayBuffer);
  const ws = wb.getWorksheet('Security');
  const cells: Record<string, string> = {};
  for (const address of ['C2', 'C3', 'C4', 'D2', 'D3']) cells[address] = ws?.getCell(address).text ?? '';
  return cells;
}

describe("a question's dropdown cell, as the card shows it and the export writes it", () => {
  it('shows the value the answer implies, or why the cell stays empty, and the export writes exactly that', async () => {
    const { a } = await createTenantPair(app);
    const q = await imported(a);
    expect(q.encryption.dropdownCell).toEqual({
      allowed: ['Yes', 'No', 'N/A'],
      value: 'Yes',
      picked: false,
      reason: null,
    });
    expect(q.access.dropdownCell).toMatchObject({
      value: null,
      picked: false,
      reason: expect.stringMatching(/does not begin with Yes, No or N\/A/),
    });
    expect(q.unknown.dropdownCell).toMatchObject({ value: null, picked: false });
    const cells = await exportedCells(a.users.contributor, q.id);
    expect(cells).toMatchObject({ C2: 'Yes', C3: '', C4: '' });
    expect(cells.D3).toBe(ACCESS_A);
  });

  it("takes a person's pick from the cell's list (or 'leave empty'), withdraws an approval, and the export follows", async () => {
    const { a } = await createTenantPair(app);
    const q = await imported(a);
    const approved = await call(app, 'POST', `/api/assessments/${q.id}/questions/${q.encryption.id}/review`, {
      as: a.users.manager,
      body: { action: 'approve' },
    });
    expect(approved.statusCode, approved.body).toBe(200);

    const no = await choose(a.users.contributor, q.id, q.encryption.id, 'No');
    expect(no.statusCode, no.body).toBe(200);
    expect(no.data).toMatchObject({
      reviewState: 'drafted',
      dropdownCell: { value: 'No', picked: true, reason: null },
    });
    const yes = await choose(a.users.contributor, q.id, q.access.id, 'Yes');
    expect(yes.data).toMatchObject({ dropdownCell: { value: 'Yes', picked: true } });
    expect(await exportedCells(a.users.contributor, q.id)).toMatchObject({ C2: 'No', C3: 'Yes', D2: ENCRYPTION_A });

    const empty = await choose(a.users.contributor, q.id, q.encryption.id, '');
    expect(empty.data).toMatchObject({ dropdownCell: { value: null, picked: true } });
    expect(await exportedCells(a.users.contributor, q.id)).toMatchObject({ C2: '', D2: ENCRYPTION_A });

    const back = await choose(a.users.contributor, q.id, q.encryption.id, null);
    expect(back.data).toMatchObject({ dropdownCell: { value: 'Yes', picked: false } });
    expect(await exportedCells(a.users.contributor, q.id)).toMatchObject({ C2: 'Yes' });
  });
});

describe('a picked value gives way to what the question became', () => {
  it('a question marked not applicable says N/A, and a rewritten answer follows its own words again', async () => {
    const { a } = await createTenantPair(app);
    const q = await imported(a);
    await choose(a.users.contributor, q.id, q.encryption.id, 'No');
    const na = await call(app, 'POST', `/api/assessments/${q.id}/questions/${q.encryption.id}/review`, {
      as: a.users.manager,
      body: { action: 'not_applicable' },
    });
    expect(na.statusCode, na.body).toBe(200);
    expect(na.data).toMatchObject({ dropdownCell: { value: 'N/A', picked: false } });
    expect(await exportedCells(a.users.contributor, q.id)).toMatchObject({ C2: 'N/A' });

    await choose(a.users.contributor, q.id, q.access.id, 'No');
    const rewritten = await call(app, 'PUT', `/api/assessments/${q.id}/questions/${q.access.id}`, {
      as: a.users.contributor,
      body: { answer: 'Yes. Every request is approved by the system owner.' },
    });
    // The pick is gone; a person's new draft fills the dropdown once approved (or when a value is picked again).
    expect(rewritten.data).toMatchObject({
      dropdownCell: { value: null, picked: false, reason: expect.stringMatching(/once approved/) },
    });
  });

  it("leaves the customer's own answer alone: no dropdown to pick on that row", async () => {
    const { a } = await createTenantPair(app);
    const q = await imported(a, ['No']);
    expect(q.encryption.dropdownCell).toBeNull();
    const refused = await choose(a.users.contributor, q.id, q.encryption.id, 'Yes');
    expect(refused.statusCode).toBe(409);
    expect(refused.data.error).toMatch(/customer's own answer stays/);
    expect(await exportedCells(a.users.contributor, q.id)).toMatchObject({ C2: 'No' });
  });
});

describe('picking a dropdown value: bad input, roles and other tenants', () => {
  it('refuses a value the list does not offer, a question with no answer or no dropdown, viewers and other organizations', async () => {
    const { a, b } = await createTenantPair(app);
    const q = await imported(a);
    const before = await exportedCells(a.users.contributor, q.id);

    const maybe = await choose(a.users.contributor, q.id, q.encryption.id, 'Maybe');
    expect(maybe.statusCode).toBe(400);
    expect(maybe.data).toMatchObject({
      code: 'validation_error',
      error: expect.stringContaining('"Yes", "No", "N/A"'),
    });
    for (const bad of [42, ['Yes'], 'x'.repeat(300)]) {
      expect((await choose(a.users.contributor, q.id, q.encryption.id, bad)).statusCode).toBe(400);
    }
    const missing = await call(app, 'PUT', `/api/assessments/${q.id}/questions/${q.encryption.id}/choice`, {
      as: a.users.contributor,
      body: {},
    });
    expect(missing.statusCode).toBe(400);

    const unanswered = await choose(a.users.contributor, q.id, q.unknown.id, 'No');
    expect(unanswered.statusCode).toBe(409);
    expect(unanswered.data.error).toBe('Write an answer before choosing the dropdown value.');

    expect((await choose(a.users.viewer, q.id, q.encryption.id, 'No')).statusCode).toBe(403);
    expect((await choose(b.users.admin, q.id, q.encryption.id, 'No')).statusCode).toBe(404);
    expect((await choose(a.users.contributor, q.id, '00000000-0000-4000-8000-000000000000', 'No')).statusCode).toBe(
      404,
    );

    // Nothing of it changed what the export writes.
    expect(await exportedCells(a.users.contributor, q.id)).toEqual(before);
  });

  it('refuses a question whose answer cell is free text', async () => {
    const { a } = await createTenantPair(app);
    await createAnswer(app, a.users.admin, { question: ENCRYPTION_Q, answer: ENCRYPTION_A });
    const res = await call(app, 'POST', '/api/assessments/import-csv', {
      as: a.users.contributor,
      body: { csvContent: `Question\n"${ENCRYPTION_Q}"\n`, name: 'Plain list' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const detail = await waitForBatch(app, a.users.contributor, res.data.id);
    const [only] = detail.questions as unknown as Question[];
    expect(only?.dropdownCell).toBeNull();
    const refused = await choose(a.users.contributor, res.data.id, only?.id ?? '', 'Yes');
    expect(refused.statusCode).toBe(409);
    expect(refused.data.error).toBe("This question's answer cell is not a dropdown.");
  });
});
