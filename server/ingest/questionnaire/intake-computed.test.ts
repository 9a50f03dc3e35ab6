import type ExcelJS from 'exceljs';
import { strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { addListValidation, xlsxOf } from '../../../test/fixtures/questionnaire/intake';
import { cellXml, entries, loadWithExcelJs, sheetOf } from '../../../test/fixtures/questionnaire/write';
import { exportOriginal, type OriginalAnswer } from '../../modules/assessments/export-original';
import { readQuestionnaire } from './intake';
import type { Intake } from './types';

// Cells the workbook computes: an evaluation sheet whose answer cells are formulas over another sheet's answers is
// not a questionnaire, a row whose answer cell is a formula is not asked, and question text may be a formula's
// cached result. Workbooks built here; the real files are measured by `npm run bench:intake`.

const QUESTIONS = [
  'Do you encrypt customer data at rest with keys managed in a KMS?',
  'Do you require multi-factor authentication for all administrative access?',
  'Do you run an external penetration test at least once a year?',
  'Do you keep audit logs of administrative actions for at least a year?',
  'Do you review user access rights every quarter?',
  'Do you have a documented incident response plan tested yearly?',
];
const CRITERIA = [
  'Customer data at rest is encrypted with keys held in a managed key service.',
  'Administrative access requires a second factor on every sign-in.',
  'An independent firm tests the external attack surface every year.',
];
/** The response sheet's row whose question text is a formula, and the rows (after the questions) whose answer is one. */
const FORMULA_QUESTION_ROW = 3;
const COMPUTED_ANSWER_ROWS = [QUESTIONS.length + 2, QUESTIONS.length + 3];
const COMPUTED_QUESTIONS = [
  'Overall compliance (computed from the answers above)?',
  'Is the vendor rated low risk by the answers above?',
];

/**
 * A scorecard first (as publishers put their summary in front), named like a sheet to answer: each row quotes a
 * question of the response sheet by formula, looks its answer up, and scores it; a review sheet weighing the
 * answers against criteria of its own. Then the response sheet: a dropdown to answer in, one question whose text
 * is a formula, two rows computed from the others.
 */
function scoredWorkbook(): Promise<Uint8Array> {
  return xlsxOf((workbook) => {
    const scores = workbook.addWorksheet('Vendor Assessment');
    scores.addRow(['Ref', 'Question', 'Vendor Answer', 'Score', 'Reviewer Comments']);
    QUESTIONS.forEach((question, i) => {
      const r = i + 2;
      const row = scores.getRow(r);
      row.getCell(1).value = `EV-${i + 1}`;
      row.getCell(2).value = { formula: `Responses!B${r}`, result: question };
      row.getCell(3).value = { formula: `VLOOKUP(A${r},Responses!A:C,3,FALSE)`, result: i === 0 ? 'Yes' : '' };
      row.getCell(4).value = { formula: `IF(C${r}="Yes",1,0)`, result: i === 0 ? 1 : 0 };
    });

    // Its own criteria, not the questions: only the formulas tell it from a sheet to answer.
    const review = workbook.addWorksheet('Supplier Review');
    review.addRow(['Criterion', 'Supplier Answer', 'Weight', 'Points']);
    CRITERIA.forEach((criterion, i) => {
      const r = i + 2;
      const row = review.getRow(r);
      row.getCell(1).value = criterion;
      row.getCell(2).value = { formula: `Responses!C${r}`, result: i === 0 ? 'Yes' : '' };
      row.getCell(3).value = 2;
      row.getCell(4).value = { formula: `IF(B${r}="Yes",C${r},0)`, result: i === 0 ? 2 : 0 };
    });

    const sheet = workbook.addWorksheet('Responses');
    sheet.addRow(['Ref', 'Question', 'Response', 'Comments']);
    QUESTIONS.forEach((question, i) => sheet.addRow([`EV-${i + 1}`, question, i === 0 ? 'Yes' : '']));
    sheet.getCell(`B${FORMULA_QUESTION_ROW}`).value = {
      formula: `"Do you require multi-factor authentication "&"for all administrative access?"`,
      result: QUESTIONS[FORMULA_QUESTION_ROW - 2] ?? '',
    };
    COMPUTED_QUESTIONS.forEach((question, i) => {
      const r = COMPUTED_ANSWER_ROWS[i] ?? 0;
      sheet.getCell(`A${r}`).value = `EV-${r - 1}`;
      sheet.getCell(`B${r}`).value = question;
      // The second shows nothing, and is still the workbook's.
      sheet.getCell(`C${r}`).value =
        i === 0
          ? { formula: 'IF(COUNTIF(C2:C7,"Yes")>3,"Yes","No")', result: 'No' }
          : { formula: 'IF(C2="","","Yes")', result: '' };
    });
    addListValidation(sheet, `C2:C${COMPUTED_ANSWER_ROWS.at(-1) ?? 0}`, '"Yes,No,N/A"');
  });
}

const questionRows = (intake: Intake, sheet: string) =>
  intake.questions.filter((q) => q.sheet === sheet).map((q) => q.row);

describe('a workbook with an evaluation sheet and computed answer cells', () => {
  it('skips the sheet whose answer cells are formulas, saying why, and reads the response sheet', async () => {
    const intake = await readQuestionnaire(await scoredWorkbook(), 'scored.xlsx');
    const scores = intake.sheets.find((s) => s.name === 'Vendor Assessment');
    expect(scores).toMatchObject({ questionCount: 0, mapping: null });
    expect(scores?.skipped).toMatch(/formulas/);
    expect(intake.sheets.find((s) => s.name === 'Supplier Review')).toMatchObject({
      questionCount: 0,
      skipped: expect.stringMatching(/formulas/),
    });
    expect(intake.mappings.map((m) => m.sheet)).toEqual(['Responses']);
  });

  it('does not ask a row whose answer cell is a formula, and reads question text from a formula’s result', async () => {
    const intake = await readQuestionnaire(await scoredWorkbook(), 'scored.xlsx');
    expect(questionRows(intake, 'Responses')).toEqual([2, 3, 4, 5, 6, 7]);
    expect(intake.questions.map((q) => q.question)).toEqual(QUESTIONS);
    for (const question of COMPUTED_QUESTIONS) {
      expect(intake.questions.map((q) => q.question)).not.toContain(question);
    }
    expect(intake.questions.find((q) => q.row === FORMULA_QUESTION_ROW)?.existingAnswer).toBeNull();
  });

  it('writes only the answer and comments cells of the rows asked: formulas and the evaluation sheet untouched', async () => {
    const original = await scoredWorkbook();
    const intake = await readQuestionnaire(original, 'scored.xlsx');
    const answers: OriginalAnswer[] = intake.questions.map((q) => ({
      sheet: q.sheet,
      row: q.row,
      answer: 'Yes. The control is in place and reviewed yearly.',
      shortAnswer: 'Yes',
      allowedValues: q.allowedValues,
      existingAnswer: q.existingAnswer,
      existingComment: q.existingComment,
    }));
    const exported = await exportOriginal(original, intake.format, intake.mappings, answers, { withSources: false });

    // The evaluation sheets' parts are byte for byte the original's; so is every formula cell of the response sheet.
    const [a, b] = [entries(original), entries(exported)];
    for (const part of ['xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml']) {
      expect(Buffer.from(b[part] ?? []).equals(Buffer.from(a[part] ?? [])), part).toBe(true);
    }
    const [before, after] = [a, b].map((e) => strFromU8(e['xl/worksheets/sheet3.xml'] ?? new Uint8Array()));
    for (const r of COMPUTED_ANSWER_ROWS) {
      expect(cellXml(after ?? '', `C${r}`), `C${r}`).toBe(cellXml(before ?? '', `C${r}`));
    }
    expect(cellXml(after ?? '', `B${FORMULA_QUESTION_ROW}`)).toBe(cellXml(before ?? '', `B${FORMULA_QUESTION_ROW}`));

    // Every other cell of every sheet keeps its value; the answer cells of the blank rows asked are filled.
    const written = new Set(
      intake.questions.filter((q) => q.existingAnswer === null).flatMap((q) => [`C${q.row}`, `D${q.row}`]),
    );
    const [was, now] = await Promise.all([loadWithExcelJs(original), loadWithExcelJs(exported)]);
    for (const ws of was.worksheets) {
      const next = sheetOf(now, ws.name);
      for (const address of addresses(ws, next)) {
        if (ws.name === 'Responses' && written.has(address)) continue;
        expect(next.getCell(address).value, `${ws.name}!${address}`).toEqual(ws.getCell(address).value);
      }
    }
    const responses = sheetOf(now, 'Responses');
    for (const address of written) expect(responses.getCell(address).value, address).not.toBeNull();
  });

  it('reads a sheet the user chose, computed rows aside, rather than skipping it', async () => {
    const bytes = await scoredWorkbook();
    const intake = await readQuestionnaire(bytes, 'scored.xlsx', [
      {
        sheet: 'Vendor Assessment',
        headerRow: 0,
        questionColumn: 1,
        answerColumn: 4,
        commentsColumn: null,
        idColumn: 0,
      },
    ]);
    expect(intake.sheets.find((s) => s.name === 'Vendor Assessment')?.skipped).toBeNull();
    expect(questionRows(intake, 'Vendor Assessment')).toEqual([2, 3, 4, 5, 6, 7]);
    await expect(
      readQuestionnaire(bytes, 'scored.xlsx', [
        {
          sheet: 'Vendor Assessment',
          headerRow: 0,
          questionColumn: 1,
          answerColumn: 2,
          commentsColumn: null,
          idColumn: 0,
        },
      ]),
    ).rejects.toMatchObject({ reason: 'no_questions' });
  });
});

/** Every address that holds something in either sheet. */
function addresses(a: ExcelJS.Worksheet, b: ExcelJS.Worksheet): string[] {
  const all = new Set<string>();
  for (const ws of [a, b]) {
    ws.eachRow({ includeEmpty: true }, (row) => row.eachCell({ includeEmpty: true }, (cell) => all.add(cell.address)));
  }
  return [...all];
}
