import * as XLSX from '@e965/xlsx';
import type ExcelJS from 'exceljs';
import { strFromU8 } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  cellXml,
  entries,
  loadWithExcelJs,
  noAnswerColumnWorkbook,
  QUESTIONNAIRE,
  questionnaireWorkbook,
  sheetOf,
} from '../../../test/fixtures/questionnaire/write';
import { type AnswerCell, WriteBackError, type WriteTarget } from './write-types';
import { writeAnswersToXlsx } from './write-xlsx';

const TARGET: WriteTarget = {
  sheet: QUESTIONNAIRE,
  headerRow: 4,
  questionColumn: 2,
  answerColumn: 3,
  commentsColumn: 4,
  allowedValues: ['Yes', 'No', 'N/A'],
};

const ANSWERS: AnswerCell[] = (
  [
    { row: 6, shortAnswer: 'Yes', answer: 'Yes. MFA is enforced for all administrative access through our SSO.' },
    { row: 7, shortAnswer: 'No', answer: 'No. Access reviews are performed semi-annually.' },
    { row: 8, shortAnswer: null, answer: 'Passwords are at least 14 characters and checked against breach lists.' },
    { row: 10, shortAnswer: 'N/A', answer: 'Not applicable: no customer data is stored at rest.' },
    { row: 11, shortAnswer: 'Yes', answer: `Yes — TLS 1.2+ with <strong> ciphers & HSTS; "quoted" 'text' 🔒` },
    { row: 12, shortAnswer: 'No', answer: 'No. All customer data stays in eu-west-1.' },
  ] satisfies Omit<AnswerCell, 'sheet'>[]
).map((a) => ({ sheet: QUESTIONNAIRE, ...a }));

/** What each dropdown cell must hold afterwards; row 8 has no short answer, so its dropdown stays empty. */
const DROPDOWN: Record<number, string | null> = { 6: 'Yes', 7: 'No', 8: null, 10: 'N/A', 11: 'Yes', 12: 'No' };
const WRITTEN = new Set(['C6', 'C7', 'C10', 'C11', 'C12', 'D6', 'D7', 'D8', 'D10', 'D11', 'D12']);
const SHEET_PART = 'xl/worksheets/sheet1.xml';

function text(value: ExcelJS.CellValue): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && 'richText' in value) return value.richText.map((r) => r.text).join('');
  return String(value);
}

/** Every address that holds something (a value or a style) in either sheet. */
function addresses(a: ExcelJS.Worksheet, b: ExcelJS.Worksheet): string[] {
  const all = new Set<string>();
  for (const ws of [a, b]) {
    ws.eachRow({ includeEmpty: true }, (row) => row.eachCell({ includeEmpty: true }, (cell) => all.add(cell.address)));
  }
  return [...all];
}

/** Parts of an exceljs worksheet that exist at run time but not in its type definitions. */
type Untyped = { dataValidations: { model: Record<string, unknown> }; conditionalFormattings: unknown[] };
const untyped = (ws: ExcelJS.Worksheet) => ws as unknown as Untyped;

/** Where a sheet's images sit (the image objects themselves point back at the sheet). */
function images(ws: ExcelJS.Worksheet) {
  return ws.getImages().map(({ imageId, range }) => ({
    imageId,
    from: [range.tl.nativeCol, range.tl.nativeRow],
    to: [range.br?.nativeCol, range.br?.nativeRow],
  }));
}

describe('writeAnswersToXlsx on a real-looking questionnaire', () => {
  let original: Uint8Array;
  let written: Uint8Array;
  let before: ExcelJS.Workbook;
  let after: ExcelJS.Workbook;

  beforeAll(async () => {
    original = await questionnaireWorkbook();
    written = await writeAnswersToXlsx(original, [TARGET], ANSWERS);
    before = await loadWithExcelJs(original);
    after = await loadWithExcelJs(written);
  });

  it('puts an allowed value in each dropdown cell and the explanation in the comments column', () => {
    const ws = sheetOf(after, QUESTIONNAIRE);
    for (const answer of ANSWERS) {
      expect(text(ws.getCell(`C${answer.row}`).value)).toBe(DROPDOWN[answer.row]);
      expect(text(ws.getCell(`D${answer.row}`).value)).toBe(answer.answer);
    }
  });

  it('is read the same way by SheetJS', () => {
    const sheet = XLSX.read(written, { type: 'array' }).Sheets[QUESTIONNAIRE];
    if (!sheet) throw new Error('sheet missing');
    for (const answer of ANSWERS) {
      expect(sheet[`C${answer.row}`]?.v ?? null).toBe(DROPDOWN[answer.row]);
      expect(sheet[`D${answer.row}`]?.v).toBe(answer.answer);
    }
    expect(sheet['E14']?.f).toBe('SUM(E6:E12)');
  });

  it('leaves every other cell of every sheet with its value, style and note, and written cells with their style', () => {
    for (const ws of before.worksheets) {
      const next = sheetOf(after, ws.name);
      for (const address of addresses(ws, next)) {
        const [a, b] = [ws.getCell(address), next.getCell(address)];
        expect(b.style, `${ws.name}!${address}`).toEqual(a.style);
        if (ws.name === QUESTIONNAIRE && WRITTEN.has(address)) continue;
        expect(b.value, `${ws.name}!${address}`).toEqual(a.value);
        expect(b.note, `${ws.name}!${address}`).toEqual(a.note);
      }
    }
  });

  it('keeps merges, widths, heights, dropdowns, conditional formats, images, panes, hidden sheets and names', () => {
    expect(after.worksheets.map((w) => [w.name, w.state])).toEqual(before.worksheets.map((w) => [w.name, w.state]));
    expect(after.definedNames.model).toEqual(before.definedNames.model);
    for (const ws of before.worksheets) {
      const next = sheetOf(after, ws.name);
      expect(next.model.merges).toEqual(ws.model.merges);
      expect(next.columns?.map((c) => c.width)).toEqual(ws.columns?.map((c) => c.width));
      expect(next.getRow(4).height).toBe(ws.getRow(4).height);
      expect(untyped(next).dataValidations.model).toEqual(untyped(ws).dataValidations.model);
      expect(untyped(next).conditionalFormattings).toEqual(untyped(ws).conditionalFormattings);
      expect(images(next)).toEqual(images(ws));
      expect(next.views).toEqual(ws.views);
    }
    expect(Object.keys(untyped(sheetOf(after, QUESTIONNAIRE)).dataValidations.model)).toHaveLength(6);
    expect(untyped(sheetOf(after, QUESTIONNAIRE)).conditionalFormattings).toHaveLength(1);
    expect(images(sheetOf(after, QUESTIONNAIRE))).toHaveLength(1);
  });

  it('changes no other part of the package, and in workbook.xml only asks for recalculation', () => {
    const [a, b] = [entries(original), entries(written)];
    expect(Object.keys(b)).toEqual(Object.keys(a));
    const changed = Object.keys(a).filter((name) => !Buffer.from(a[name] ?? []).equals(Buffer.from(b[name] ?? [])));
    expect(changed.sort()).toEqual(['xl/workbook.xml', SHEET_PART]);
    const workbook = strFromU8(b['xl/workbook.xml'] ?? new Uint8Array());
    expect(workbook).toContain('fullCalcOnLoad="1"');
    expect(workbook.replace(' fullCalcOnLoad="1"', '')).toBe(strFromU8(a['xl/workbook.xml'] ?? new Uint8Array()));
  });

  it('changes only the written <c> elements of the sheet, byte for byte', () => {
    const [a, b] = [entries(original), entries(written)].map((e) => strFromU8(e[SHEET_PART] ?? new Uint8Array()));
    const outside = (xml: string) => xml.replace(/<sheetData>[\s\S]*<\/sheetData>/, '');
    expect(outside(b ?? '')).toBe(outside(a ?? ''));
    const refs = new Set([...(a ?? '').matchAll(/<c r="([A-Z]+[0-9]+)"/g)].map((m) => m[1] ?? ''));
    for (const ref of refs) if (!WRITTEN.has(ref)) expect(cellXml(b ?? '', ref), ref).toBe(cellXml(a ?? '', ref));
    expect(cellXml(b ?? '', 'C12')).not.toContain('<v>');
  });

  it('leaves a dropdown empty when the answer is none of its values, and still writes the explanation', async () => {
    const target = { ...TARGET, allowedValues: ['Compliant', 'Partially compliant', 'Not compliant'] };
    const ws = sheetOf(await loadWithExcelJs(await writeAnswersToXlsx(original, [target], ANSWERS)), QUESTIONNAIRE);
    expect(text(ws.getCell('C6').value)).toBeNull();
    expect(text(ws.getCell('C12').value)).toBe('No'); // the customer's own value is kept, not blanked
    expect(text(ws.getCell('D6').value)).toBe(ANSWERS[0]?.answer);
  });

  it('adds a Comments column, styled like the header, when a dropdown has no comments column', async () => {
    const target = { ...TARGET, commentsColumn: null };
    const ws = sheetOf(await loadWithExcelJs(await writeAnswersToXlsx(original, [target], ANSWERS)), QUESTIONNAIRE);
    // F is the first column right of the table (A–E); the image over G:H is not a cell and does not count.
    expect(text(ws.getCell('F4').value)).toBe('Comments');
    expect(ws.getCell('F4').style).toEqual(ws.getCell('B4').style);
    expect(ws.getColumn(6).width).toBe(50);
    expect(text(ws.getCell('C6').value)).toBe('Yes');
    expect(text(ws.getCell('F6').value)).toBe(ANSWERS[0]?.answer);
    expect(ws.getCell('F6').style).toEqual(ws.getCell('B6').style);
    expect(text(ws.getCell('D6').value)).toBeNull();
  });

  it('adds a Source column with each citation', async () => {
    const withSources = ANSWERS.map((a) => ({ ...a, source: `Security Policy, p. ${a.row}` }));
    const out = await writeAnswersToXlsx(original, [{ ...TARGET, addSourceColumn: true }], withSources);
    const sheet = XLSX.read(out, { type: 'array' }).Sheets[QUESTIONNAIRE];
    expect(sheet?.['F4']?.v).toBe('Source');
    for (const answer of withSources) expect(sheet?.[`F${answer.row}`]?.v).toBe(answer.source);
    expect(sheet?.['!ref']).toBe('A1:F14');
  });

  it('refuses, with a reason, targets that do not fit the workbook', async () => {
    const attempt = (targets: WriteTarget[], answers: AnswerCell[]) => writeAnswersToXlsx(original, targets, answers);
    await expect(attempt([{ ...TARGET, sheet: 'Nope' }], [])).rejects.toMatchObject({ reason: 'sheet_not_found' });
    await expect(attempt([TARGET], [{ sheet: QUESTIONNAIRE, row: 4, answer: 'x' }])).rejects.toMatchObject({
      reason: 'invalid_target',
    });
    await expect(attempt([TARGET], [{ sheet: 'Instructions', row: 9, answer: 'x' }])).rejects.toMatchObject({
      reason: 'invalid_target',
    });
    await expect(attempt([{ ...TARGET, answerColumn: 2 }], [])).rejects.toBeInstanceOf(WriteBackError);
    await expect(writeAnswersToXlsx(new Uint8Array([1, 2, 3]), [TARGET], [])).rejects.toMatchObject({
      reason: 'corrupt',
      status: 422,
    });
  });
});

describe('writeAnswersToXlsx on a questionnaire without an answer column', () => {
  const target: WriteTarget = {
    sheet: 'Questions',
    headerRow: 3,
    questionColumn: 3,
    answerColumn: null,
    commentsColumn: null,
    allowedValues: null,
    addSourceColumn: true,
  };
  const answers: AnswerCell[] = [4, 5, 6, 7, 8].map((row) => ({
    sheet: 'Questions',
    row,
    answer: `Answer for row ${row}`,
    source: row === 6 ? null : `Library: question ${row}`,
  }));

  it('adds "Response" and "Source" columns right of the table, styled and sized', async () => {
    const original = await noAnswerColumnWorkbook();
    const out = await writeAnswersToXlsx(original, [target], answers);
    const ws = sheetOf(await loadWithExcelJs(out), 'Questions');
    const was = sheetOf(await loadWithExcelJs(original), 'Questions');
    expect(text(ws.getCell('D3').value)).toBe('Response');
    expect(text(ws.getCell('E3').value)).toBe('Source');
    expect(ws.getCell('D3').style).toEqual(was.getCell('C3').style);
    expect(ws.getCell('E3').style).toEqual(was.getCell('C3').style);
    expect([ws.getColumn(4).width, ws.getColumn(5).width]).toEqual([60, 40]);
    expect(ws.columns?.slice(0, 3).map((c) => c.width)).toEqual([8, 20, 70]);
    for (const answer of answers) {
      expect(text(ws.getCell(`D${answer.row}`).value)).toBe(answer.answer);
      expect(ws.getCell(`D${answer.row}`).style).toEqual(was.getCell(`C${answer.row}`).style);
      expect(text(ws.getCell(`E${answer.row}`).value)).toBe(answer.source ?? null);
    }
    expect(ws.model.merges).toEqual(was.model.merges);
    const sheet = XLSX.read(out, { type: 'array' }).Sheets['Questions'];
    expect(sheet?.['D8']?.v).toBe('Answer for row 8');
    expect(sheet?.['!ref']).toBe('A1:E8');
  });
});

describe('writeAnswersToXlsx text handling', () => {
  const target: WriteTarget = { ...TARGET, allowedValues: null };
  const write = async (answer: string) => {
    const out = await writeAnswersToXlsx(
      await questionnaireWorkbook(),
      [target],
      [{ sheet: QUESTIONNAIRE, row: 6, answer }],
    );
    const viaExcelJs = text(sheetOf(await loadWithExcelJs(out), QUESTIONNAIRE).getCell('C6').value);
    const viaSheetJs: unknown = XLSX.read(out, { type: 'array' }).Sheets[QUESTIONNAIRE]?.['C6']?.v;
    return { viaExcelJs, viaSheetJs };
  };

  it('escapes XML special characters and keeps emoji, quotes, tabs and surrounding spaces', async () => {
    const answer = `  <b>Tom & Jerry's "policy"</b> ]]> 👩‍💻 🔐\ttabbed\n2nd line  `;
    expect(await write(answer)).toEqual({ viaExcelJs: answer, viaSheetJs: answer });
  });

  it('cuts a 40,000-character answer to Excel’s 32,767-character limit with an ellipsis', async () => {
    const { viaExcelJs, viaSheetJs } = await write('a'.repeat(39_999) + 'Z');
    expect(viaExcelJs).toHaveLength(32_767);
    expect(viaExcelJs?.endsWith('a…')).toBe(true);
    expect(viaSheetJs).toBe(viaExcelJs);
  });

  it('drops characters XML cannot carry and turns CR/CRLF into line feeds', async () => {
    expect(await write('a\u0000b\u0007c\r\nd\re\uFFFF')).toEqual({ viaExcelJs: 'abc\nd\ne', viaSheetJs: 'abc\nd\ne' });
  });

  it('writes text that looks like a formula as text', async () => {
    const out = await writeAnswersToXlsx(
      await questionnaireWorkbook(),
      [target],
      [{ sheet: QUESTIONNAIRE, row: 6, answer: '=HYPERLINK("http://evil.example","x")' }],
    );
    const cell = sheetOf(await loadWithExcelJs(out), QUESTIONNAIRE).getCell('C6');
    expect(cell.formula).toBeUndefined();
    expect(cell.value).toBe('=HYPERLINK("http://evil.example","x")');
  });
});
