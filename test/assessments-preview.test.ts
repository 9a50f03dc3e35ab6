import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewResponse } from '../common/schemas/assessments';
import { createTestApp, type TestApp } from './helpers/app';
import { postMultipart } from './helpers/assessments';
import { createTenant, createTenantPair } from './helpers/factories';

// What the import preview counts per sheet: the questions the customer already answered (which the filled file
// leaves as they are) and the questions whose answer cell is a dropdown (whose full answer then goes to the
// comments column), so the dialog can say where the answers will go and what stays the customer's.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const PREVIEW = '/api/assessments/preview';
const DROPDOWN_SHEET = 'Vendor Response';
const MARKS_SHEET = 'Vendor Questions';

/**
 * Instructions, a sheet answered in a Yes/No dropdown with an Additional Information column (one answer given, one
 * row with only a comment, one row without a dropdown) and a sheet answered by ticks under Yes / No / N/A (one row
 * ticked, one with only notes, which are the customer's answer there too).
 */
async function workbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const instructions = wb.addWorksheet('Instructions');
  instructions.addRow(['Answer every question in the Vendor Response tab and return the workbook to us.']);

  const response = wb.addWorksheet(DROPDOWN_SHEET);
  response.addRow(['ID', 'Question', 'Vendor Answers', 'Additional Information']);
  response.addRow(['DOC-01', 'Do you hold a current SOC 2 Type II report?', '', '']);
  response.addRow(['DOC-02', 'Is multi-factor authentication enforced for all employees?', 'No', '']);
  response.addRow(['DOC-03', 'Do you encrypt customer data at rest?', '', 'Being rolled out this quarter.']);
  response.addRow(['DOC-04', 'Describe how you vet your subprocessors.', '', '']);
  for (const row of [2, 3, 4]) {
    response.getCell(`C${String(row)}`).dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No"'] };
  }

  const marks = wb.addWorksheet(MARKS_SHEET);
  marks.addRow(['Ref', 'Question', 'Yes', 'No', 'N/A', 'Comments']);
  marks.addRow(['VQ-1', 'Do you segregate production from test environments?', '✓', null, null, null]);
  marks.addRow(['VQ-2', 'Do you run a bug bounty programme?', null, null, null, 'Planned for next year.']);
  marks.addRow(['VQ-3', 'Do you process cardholder data on behalf of customers?', null, null, null, null]);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

const file = async () => ({ name: 'vendor.xlsx', bytes: await workbook() });
const sheetOf = (preview: PreviewResponse, name: string) => preview.sheets.find((s) => s.name === name);

describe('POST /api/assessments/preview: answers already given and dropdown answer cells, per sheet', () => {
  it("counts per sheet the customer's answers the filled file keeps, and the dropdown answer cells", async () => {
    const t = await createTenant(app);
    const res = await postMultipart(app, PREVIEW, t.users.contributor, {}, await file());
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.data as PreviewResponse;

    // A comment alone is not an answer where the answer has a cell of its own.
    expect(sheetOf(preview, DROPDOWN_SHEET)).toMatchObject({
      questionCount: 4,
      prefilledAnswers: 1,
      dropdownQuestions: 3,
      mapping: { answerColumn: 2, commentsColumn: 3 },
    });
    // Notes are the answer's text on a sheet answered by ticks: the export leaves that row alone, so it counts. The
    // choice labels are not a dropdown.
    expect(sheetOf(preview, MARKS_SHEET)).toMatchObject({
      questionCount: 3,
      prefilledAnswers: 2,
      dropdownQuestions: 0,
      mapping: { answerChoiceColumns: expect.any(Array), commentsColumn: 5 },
    });
    expect(sheetOf(preview, 'Instructions')).toMatchObject({ questionCount: 0, prefilledAnswers: 0 });
    expect(preview.prefilledAnswers).toBe(3);
    expect(preview.totalQuestions).toBe(7);
  });

  it('counts again with the columns the user chose', async () => {
    const t = await createTenant(app);
    // The user takes Additional Information as the answer column: the comment is then the customer's answer.
    const mapping = [
      { sheet: DROPDOWN_SHEET, headerRow: 0, questionColumn: 1, answerColumn: 3, commentsColumn: null, idColumn: 0 },
    ];
    const res = await postMultipart(
      app,
      PREVIEW,
      t.users.contributor,
      { mapping: JSON.stringify(mapping) },
      await file(),
    );
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.data as PreviewResponse;
    expect(sheetOf(preview, DROPDOWN_SHEET)).toMatchObject({ prefilledAnswers: 1, dropdownQuestions: 0 });
    expect(sheetOf(preview, MARKS_SHEET)).toMatchObject({ questionCount: 0, prefilledAnswers: 0, mapping: null });
    expect(preview.prefilledAnswers).toBe(1);
  });

  it('refuses a mapping that is not JSON, or names no sheet of the file', async () => {
    const t = await createTenant(app);
    const notJson = await postMultipart(app, PREVIEW, t.users.contributor, { mapping: '[{' }, await file());
    expect(notJson.statusCode).toBe(400);
    const missing = [
      { sheet: 'Nope', headerRow: 0, questionColumn: 1, answerColumn: 2, commentsColumn: null, idColumn: null },
    ];
    const res = await postMultipart(
      app,
      PREVIEW,
      t.users.contributor,
      { mapping: JSON.stringify(missing) },
      await file(),
    );
    expect(res.statusCode).toBe(400);
    expect(res.data.error).toMatch(/Nope/);
  });

  it("refuses a viewer, and another organization's workspace", async () => {
    const { a, b } = await createTenantPair(app);
    const viewer = await postMultipart(app, PREVIEW, a.users.viewer, {}, await file());
    expect(viewer.statusCode).toBe(403);
    const other = await postMultipart(
      app,
      PREVIEW,
      { ...a.users.contributor, workspaceId: b.users.contributor.workspaceId },
      {},
      await file(),
    );
    expect(other.statusCode).toBe(404);
  });
});
