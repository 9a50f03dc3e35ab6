import { strFromU8 } from 'fflate';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellXml, entries } from './fixtures/questionnaire/write';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { postMultipart, waitForBatch } from './helpers/assessments';
import { createAnswer, createTenant, createTenantPair } from './helpers/factories';

// A questionnaire answered by a mark under one of several columns (Yes / No / Not Applicable), some rows already
// answered by the customer under each column, some blank: imported, answered from the library and exported through
// the API, the customer's marks must come back byte for byte and each blank row must get exactly one mark.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

type Choice = 'Yes' | 'No' | 'N/A';
/** One question row: the customer's mark (a choice, or blank) and what the library answers. */
type Row = { question: string; customer: Choice | null; library: string; expected: Choice | null };

const ROWS: Row[] = [
  {
    question: 'Do you segregate production and non-production environments with separate credentials?',
    customer: 'No',
    library: 'Yes. Production and staging run in separate cloud accounts with separate SSO roles.',
    expected: null,
  },
  {
    question: 'Do you operate a dedicated hardware security module for customer key storage?',
    customer: 'N/A',
    library: 'Yes. Customer keys are held in a FIPS 140-2 Level 3 HSM cluster.',
    expected: null,
  },
  {
    question: 'Is every privileged session recorded and retained for at least one year?',
    customer: 'Yes',
    library: 'Yes. Privileged sessions are recorded by the bastion and kept for 400 days.',
    expected: null,
  },
  {
    question: 'Do you permit customers to perform their own penetration tests against the service?',
    customer: 'No',
    library: 'Yes. Customers may test with two weeks notice under our rules of engagement.',
    expected: null,
  },
  {
    question: 'Are backups of customer data encrypted with keys separate from production keys?',
    customer: null,
    library: 'Yes. Backups are encrypted with a dedicated KMS key that production services cannot use.',
    expected: 'Yes',
  },
  {
    question: 'Do you process cardholder data on behalf of customers?',
    customer: null,
    library: 'No. The service never stores, processes or transmits cardholder data.',
    expected: 'No',
  },
  {
    question: 'Do you operate physical data centres of your own for the hosted service?',
    customer: null,
    library: 'Not applicable: the service runs entirely on a public cloud provider.',
    expected: 'N/A',
  },
  {
    question: 'Do you provide tenants with a dedicated single-tenant deployment option?',
    customer: 'N/A',
    library: 'No. Every customer is served from the shared multi-tenant platform.',
    expected: null,
  },
];

/** How a layout places the choices: the columns (1-based) of Yes, No and N/A, the notes column, the first row. */
type Layout = {
  name: string;
  sheet: string;
  choiceColumns: Record<Choice, number>;
  notesColumn: number;
  firstRow: number;
  /** The customer's mark, and the one the export is expected to copy. */
  mark: string;
  build: (workbook: ExcelJS.Workbook) => ExcelJS.Worksheet;
};

const LAYOUTS: Layout[] = [
  {
    // CAIQ v3.1: "Consensus Assessment Answers" merged over three sub-labelled columns; the row of sub-labels also
    // labels a mapping column's part, and blank answers are empty strings, as some exporters write them.
    name: 'sub-labels under a merged answers header',
    sheet: 'CAIQv3.1',
    choiceColumns: { Yes: 4, No: 5, 'N/A': 6 },
    notesColumn: 7,
    firstRow: 4,
    mark: 'X',
    build: (workbook) => {
      const ws = workbook.addWorksheet('CAIQv3.1');
      ws.addRow(['Consensus Assessments Initiative Questionnaire v3.1']);
      ws.addRow([
        'Question ID',
        'Control Domain',
        'Consensus Assessment Questions',
        'Consensus Assessment Answers',
        '',
        '',
        'Notes',
        'CCM v3.0.1 Mapping',
      ]);
      ws.mergeCells('D2:F2');
      ws.addRow(['', '', '', 'Yes', 'No', 'Not Applicable', '', 'Control ID']);
      ROWS.forEach((row, i) => {
        const marks = (['Yes', 'No', 'N/A'] as const).map((choice) => (row.customer === choice ? 'X' : ''));
        ws.addRow([`AIS-0${i + 1}.1`, 'Application & Interface Security', row.question, ...marks, '', `AIS-0${i + 1}`]);
      });
      return ws;
    },
  },
  {
    // The choices labelled in the header row itself, ticked, blank answers absent cells.
    name: 'choices labelled in the header row',
    sheet: 'Vendor Questions',
    choiceColumns: { Yes: 3, No: 4, 'N/A': 5 },
    notesColumn: 6,
    firstRow: 2,
    mark: '✓',
    build: (workbook) => {
      const ws = workbook.addWorksheet('Vendor Questions');
      ws.addRow(['Ref', 'Question', 'Yes', 'No', 'N/A', 'Comments']);
      ROWS.forEach((row, i) => {
        const marks = (['Yes', 'No', 'N/A'] as const).map((choice) => (row.customer === choice ? '✓' : null));
        ws.addRow([`VQ-${i + 1}`, row.question, ...marks, null]);
      });
      return ws;
    },
  },
];

async function workbookOf(layout: Layout): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  layout.build(workbook);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const SHEET_PART = 'xl/worksheets/sheet1.xml';
const sheetXmlOf = (bytes: Uint8Array) => strFromU8(entries(bytes)[SHEET_PART] ?? new Uint8Array());
const letter = (column: number) => String.fromCharCode(64 + column);

async function libraryTenant() {
  const t = await createTenant(app);
  for (const row of ROWS) await createAnswer(app, t.users.admin, { question: row.question, answer: row.library });
  return t;
}

describe.each(LAYOUTS)('a workbook answered by marks: $name', (layout) => {
  it('previews every row marked under any choice as the customer’s answer', async () => {
    const t = await createTenant(app);
    const file = { name: 'marks.xlsx', bytes: await workbookOf(layout) };
    const preview = await postMultipart(app, '/api/assessments/preview', t.users.contributor, {}, file);
    expect(preview.statusCode, preview.body).toBe(200);
    const sheet = preview.data.sheets.find((s: { name: string }) => s.name === layout.sheet);
    expect(sheet.mapping.answerChoiceColumns).toEqual(
      (['Yes', 'No', 'N/A'] as const).map((choice) => ({
        column: layout.choiceColumns[choice] - 1,
        label: expect.any(String),
        mark: layout.mark,
      })),
    );
    expect(preview.data.totalQuestions).toBe(ROWS.length);
    expect(preview.data.prefilledAnswers).toBe(ROWS.filter((row) => row.customer !== null).length);
    const answered = preview.data.questions.map((q: { existingAnswer: string | null }) => q.existingAnswer !== null);
    expect(answered).toEqual(ROWS.map((row) => row.customer !== null));
  });

  it('marks each blank row once under its answer and leaves the customer’s marks and every other cell as they were', async () => {
    const t = await libraryTenant();
    const original = await workbookOf(layout);
    const res = await postMultipart(
      app,
      '/api/assessments/import',
      t.users.admin,
      { name: 'Marks' },
      { name: 'marks.xlsx', bytes: original },
    );
    expect(res.statusCode, res.body).toBe(201);
    const done = await waitForBatch(app, t.users.admin, res.data.id);
    expect(done.questions.map((q) => q.answerType)).toEqual(ROWS.map(() => 'canonical'));
    const out = await app.inject({
      method: 'GET',
      url: `/api/assessments/${res.data.id}/export?format=xlsx`,
      headers: { cookie: t.users.admin.cookie },
    });
    expect(out.statusCode, out.body).toBe(200);
    const exported = new Uint8Array(out.rawPayload);
    const [before, after] = [sheetXmlOf(original), sheetXmlOf(exported)];

    const changed = new Set<string>();
    ROWS.forEach((row, i) => {
      const r = layout.firstRow + i;
      const cells = (['Yes', 'No', 'N/A'] as const).map((choice) => `${letter(layout.choiceColumns[choice])}${r}`);
      if (row.expected === null) {
        // The customer's answer: not one byte of its choice cells changes.
        for (const ref of cells) expect(cellXml(after, ref), ref).toBe(cellXml(before, ref));
        return;
      }
      const marked = `${letter(layout.choiceColumns[row.expected])}${r}`;
      changed.add(marked).add(`${letter(layout.notesColumn)}${r}`);
      for (const ref of cells) {
        if (ref === marked) expect(cellXml(after, ref), ref).toContain(`<t xml:space="preserve">${layout.mark}</t>`);
        else expect(cellXml(after, ref), ref).toBe(cellXml(before, ref));
      }
      expect(cellXml(after, `${letter(layout.notesColumn)}${r}`)).toContain(row.library.slice(0, 20));
    });

    // Nothing else: the sheet outside its rows, and every cell but the marks and notes written, byte for byte.
    const outside = (xml: string) => xml.replace(/<sheetData>[\s\S]*<\/sheetData>/, '');
    expect(outside(after)).toBe(outside(before));
    const refs = (xml: string) => new Set([...xml.matchAll(/<c r="([A-Z]+[0-9]+)"/g)].map((m) => m[1] ?? ''));
    for (const ref of refs(before)) if (!changed.has(ref)) expect(cellXml(after, ref), ref).toBe(cellXml(before, ref));
    for (const ref of refs(after)) if (!refs(before).has(ref)) expect(changed.has(ref), ref).toBe(true);
  });
});

describe('answer-choice mappings from the preview', () => {
  it('refuse a mark that is not a short text, naming the sheet', async () => {
    const t = await createTenant(app);
    const layout = LAYOUTS[1];
    if (!layout) throw new Error('no layout');
    const mapping = [
      {
        sheet: layout.sheet,
        headerRow: 0,
        questionColumn: 1,
        answerColumn: 2,
        commentsColumn: 5,
        idColumn: 0,
        answerChoiceColumns: [
          { column: 2, label: 'Yes', mark: 'x'.repeat(21) },
          { column: 3, label: 'No' },
        ],
      },
    ];
    const res = await postMultipart(
      app,
      '/api/assessments/preview',
      t.users.contributor,
      { mapping: JSON.stringify(mapping) },
      { name: 'marks.xlsx', bytes: await workbookOf(layout) },
    );
    expect(res.statusCode, res.body).toBe(400);
  });

  it('keep another organization’s assessment out of reach of the export', async () => {
    const { a, b } = await createTenantPair(app);
    const layout = LAYOUTS[0];
    if (!layout) throw new Error('no layout');
    const res = await postMultipart(
      app,
      '/api/assessments/import',
      a.users.admin,
      { name: 'Marks' },
      { name: 'marks.xlsx', bytes: await workbookOf(layout) },
    );
    expect(res.statusCode, res.body).toBe(201);
    const other = await call(app, 'GET', `/api/assessments/${res.data.id}/export?format=xlsx`, { as: b.users.admin });
    expect(other.statusCode).toBe(404);
  });
});
