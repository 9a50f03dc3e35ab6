import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createAnswer, createOrg, createTenant, type Tenant } from './helpers/factories';
import { expectRolePolicy } from './helpers/roles-matrix';
import { parseCsv } from '../common/import/csv';
import { entriesFromSheets } from '../common/import/sheet';

let app: TestApp;
let t: Tenant;
beforeAll(async () => {
  app = await createTestApp();
  t = await createTenant(app);
});
afterAll(() => app.close());

const entry = (question: string, answer = 'Yes, reviewed every quarter.', more: object = {}) => ({
  question,
  answer,
  tags: [],
  source: 'Security sheet 2026',
  confidence: 85,
  ...more,
});

async function libraryOf(as: { cookie: string; workspaceId?: string }, query = '') {
  return (await call(app, 'GET', `/api/canonical-answers${query}`, { as })).data as Array<{
    id: string;
    question: string;
    answer: string;
    status: string;
    tags: string[];
    source: string | null;
    confidence: number | null;
  }>;
}

describe('POST /api/canonical-answers/import', () => {
  it('imports approved entries with their source, confidence and tags, and counts duplicates', async () => {
    const org = await createOrg(app);
    await createAnswer(app, org.admin, { question: 'Do you have a SOC 2 Type II report?' });
    const res = await call(app, 'POST', '/api/canonical-answers/import', {
      as: org.admin,
      body: {
        entries: [
          entry('Do you use MFA for administrators?', 'Yes', { tags: ['access'], confidence: 92 }),
          entry('do you have a SOC-2 type ii report'),
          entry('Is <b>HTML</b> kept as text?', '<script>alert(1)</script> is stored, never run.'),
          entry('Do you use MFA for administrators'),
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ imported: 2, skipped: 2 });
    expect(res.data.duplicates).toMatchObject([
      { index: 1, question: 'do you have a SOC-2 type ii report', existingId: expect.any(String) },
      { index: 3, question: 'Do you use MFA for administrators', existingId: null },
    ]);
    const list = await libraryOf(org.admin, '?q=mfa');
    expect(list).toMatchObject([
      { answer: 'Yes', status: 'approved', tags: ['access'], confidence: 92, source: 'Security sheet 2026' },
    ]);
    const html = await libraryOf(org.admin, '?q=html');
    expect(html[0]?.answer).toBe('<script>alert(1)</script> is stored, never run.');
    const logs = await call(app, 'GET', '/api/admin/audit-logs', { as: org.admin });
    expect(logs.data[0]).toMatchObject({
      action: 'canonical_answers_imported',
      details: { imported: 2, duplicates: 2, status: 'approved' },
    });
  });

  it('imports as drafts when asked', async () => {
    const org = await createOrg(app);
    const res = await call(app, 'POST', '/api/canonical-answers/import', {
      as: org.admin,
      body: { entries: [entry('Are drafts imported as drafts?')], status: 'draft' },
    });
    expect(res.data.imported).toBe(1);
    expect((await libraryOf(org.admin))[0]).toMatchObject({ status: 'draft' });
  });

  it('is all or nothing: one bad entry imports none and says which', async () => {
    const org = await createOrg(app);
    const cases: Array<[unknown, number, string]> = [
      [{ entries: [entry('A fine question?'), entry('', 'No question')] }, 400, 'Question is required'],
      [{ entries: [entry('A fine question?'), { question: 'Missing answer?' }] }, 400, 'Answer is required'],
      [{ entries: [entry('A fine question?'), entry('?!?!', 'Punctuation only')] }, 400, 'Entry 2: Question must'],
      [{ entries: [entry('A fine question?', 'x'.repeat(20_001))] }, 400, 'at most 20,000 characters'],
      [{ entries: [entry('A fine question?', 'ok', { confidence: 140 })] }, 400, 'Confidence must be 0–100'],
      [{ entries: [] }, 400, 'No valid Q&A entries found'],
      [{ entries: 'question,answer' }, 400, 'entries must be a list'],
      [{ entries: [entry('A fine question?')], status: 'archived' }, 400, 'approved or draft'],
    ];
    for (const [body, status, message] of cases) {
      const res = await call(app, 'POST', '/api/canonical-answers/import', { as: org.admin, body });
      expect(res.statusCode, JSON.stringify(body).slice(0, 100)).toBe(status);
      expect(res.data.error).toContain(message);
    }
    expect(await libraryOf(org.admin)).toEqual([]);
  });

  it('refuses 50,000 rows and a body over 20 MB, importing nothing', async () => {
    const org = await createOrg(app);
    const many = Array.from({ length: 50_000 }, (_, i) => ({ question: `Question ${i}?`, answer: 'Yes' }));
    const tooMany = await call(app, 'POST', '/api/canonical-answers/import', {
      as: org.admin,
      body: { entries: many },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.data.error).toContain('An import can hold at most 10,000 entries');
    const huge = await call(app, 'POST', '/api/canonical-answers/import', {
      as: org.admin,
      body: { entries: [entry('A huge answer?', 'x'.repeat(21 * 1024 * 1024))] },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.data.error).toBe(
      'The request is larger than the 20 MB this call accepts. Split it into smaller parts.',
    );
    expect(await libraryOf(org.admin)).toEqual([]);
  });

  it('answers 400 to a body that is not JSON', async () => {
    const org = await createOrg(app);
    const res = await app.inject({
      method: 'POST',
      url: '/api/canonical-answers/import',
      headers: { cookie: org.admin.cookie, 'content-type': 'application/json' },
      payload: '{"entries": [{"question": "Unclosed',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_json', error: 'The request body is not valid JSON.' });
    expect(await libraryOf(org.admin)).toEqual([]);
  });

  it('imports 10,000 entries in one call', async () => {
    const org = await createOrg(app);
    const entries = Array.from({ length: 10_000 }, (_, i) => ({
      question: `Bulk question number ${i} about control ${i % 97}?`,
      answer: `Answer ${i}: yes, the control is in place and tested.`,
      tags: [`domain-${i % 10}`],
    }));
    const res = await call(app, 'POST', '/api/canonical-answers/import', { as: org.admin, body: { entries } });
    expect(res.data).toMatchObject({ imported: 10_000, skipped: 0 });
    const page = await call(app, 'GET', '/api/canonical-answers?limit=50&q=control%2042', { as: org.admin });
    expect(Number(page.headers['x-total-count'])).toBeGreaterThan(0);
    const counts = await call(app, 'GET', '/api/canonical-answers/counts', { as: org.admin });
    expect(counts.data.all).toBe(10_000);
  }, 120_000);

  it('is for managers and admins', async () => {
    let n = 0;
    await expectRolePolicy(app, t, 'knowledge:import', () => ({
      method: 'POST',
      url: '/api/canonical-answers/import',
      body: { entries: [entry(`Role matrix import question ${(n += 1)}?`)] },
    }));
  });
});

describe('POST /api/canonical-answers/export', () => {
  it('downloads the selection as a dated CSV with formula cells neutralised, and it imports back', async () => {
    const org = await createOrg(app);
    const a = await createAnswer(app, org.admin, {
      question: 'Which ciphers do you allow, and why?',
      answer: '=HYPERLINK("http://evil.example","click") is not a formula here, "quoted" and\nmulti-line.',
      tags: ['crypto', 'tls'],
    });
    const b = await createAnswer(app, org.admin, { question: '@Is the at-sign guarded too?' });
    const res = await call(app, 'POST', '/api/canonical-answers/export', {
      as: org.admin,
      body: { answerIds: [b.id, a.id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="canonical-answers-${today}.csv"`);
    // A quote after a comma is guarded too: Excel with ';' as its separator may start a cell there.
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",'""click"") is not a formula here`);
    expect(res.body).toContain("'@Is the at-sign guarded too?");

    const back = parseCsv(res.body);
    expect(back.map((e) => [e.question, e.answer, e.tags])).toEqual([
      ['@Is the at-sign guarded too?', b.answer, []],
      [a.question, a.answer, ['crypto', 'tls']],
    ]);
    // Importing the export into another organization recreates the entries.
    const other = await createOrg(app);
    const imported = await call(app, 'POST', '/api/canonical-answers/import', {
      as: other.admin,
      body: { entries: back },
    });
    expect(imported.data.imported).toBe(2);
  });

  it('also writes xlsx, with every cell as text', async () => {
    const org = await createOrg(app);
    const a = await createAnswer(app, org.admin, {
      question: 'Is the spreadsheet export typed as text?',
      answer: '=1+1 must stay text in the workbook.',
      tags: ['export'],
    });
    const res = await app.inject({
      method: 'POST',
      url: '/api/canonical-answers/export',
      headers: { cookie: org.admin.cookie },
      payload: { answerIds: [a.id], format: 'xlsx' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/canonical-answers-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    expect(sheet?.getCell('B2').value).toBe('=1+1 must stay text in the workbook.');
    const rows: string[][] = [];
    sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
    const back = entriesFromSheets([{ name: sheet?.name ?? '', rows }], { source: 'x', confidence: 85 });
    expect(back).toMatchObject([{ question: a.question, answer: a.answer, tags: ['export'] }]);
  });

  it('refuses an empty selection, bad ids, a bad format, and unknown ids', async () => {
    const org = await createOrg(app);
    const a = await createAnswer(app, org.admin);
    const cases: Array<[unknown, number, string]> = [
      [{ answerIds: [] }, 400, 'Select at least one answer to export'],
      [{ answerIds: ['nope'] }, 400, 'answerIds must be answer ids'],
      [{ answerIds: [a.id], format: 'pdf' }, 400, 'Format must be csv or xlsx'],
      [{ answerIds: [a.id, '00000000-0000-4000-8000-000000000000'] }, 404, '1 of the selected answers was not found'],
    ];
    for (const [body, status, message] of cases) {
      const res = await call(app, 'POST', '/api/canonical-answers/export', { as: org.admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.data.error).toContain(message);
    }
  });

  it('is open to every role that can read the library', async () => {
    const a = await createAnswer(app, t.admin);
    await expectRolePolicy(app, t, 'knowledge:read', () => ({
      method: 'POST',
      url: '/api/canonical-answers/export',
      body: { answerIds: [a.id] },
    }));
  });
});
