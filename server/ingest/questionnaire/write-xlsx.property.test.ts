import * as XLSX from '@e965/xlsx';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handmadeWorkbook, sheetXml } from '../../../test/fixtures/questionnaire/write';
import { columnLetters } from './write-ref';
import { cleanCellText } from './write-text';
import type { WriteTarget } from './write-types';
import { writeAnswersToXlsx } from './write-xlsx';

// Read back with SheetJS, which decodes OOXML's `_xHHHH_` escapes as Excel does (exceljs leaves them as written).

const SHEET = 'Sheet & Co';
const s = (text: string) => `<is><t>${text}</t></is>`;

/** Pieces that have broken spreadsheet writers: markup, OOXML escapes, line ends, lone surrogates, controls. */
const tricky = fc.constantFrom(
  '&',
  '<',
  '>',
  ']]>',
  '"',
  "'",
  '_x0041_',
  '_x005F_',
  '_x00',
  '\r\n',
  '\r',
  '\n',
  '\t',
  ' ',
  '\u0000',
  '\u001F',
  '\uD800',
  '\uDC00',
  '\uFFFE',
  '😀',
  '👩‍💻',
  '=SUM(A1)',
  '&amp;',
);
const answerText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(fc.oneof(tricky, fc.string({ unit: 'binary', maxLength: 6 })), { maxLength: 12 }).map((p) => p.join('')),
);

function readCells(bytes: Uint8Array): Record<string, unknown> {
  const sheet = XLSX.read(bytes, { type: 'array' }).Sheets[SHEET] ?? {};
  return Object.fromEntries(
    Object.entries(sheet)
      .filter(([ref]) => !ref.startsWith('!'))
      .map(([ref, cell]: [string, XLSX.CellObject]) => [ref, cell.v]),
  );
}

describe('writeAnswersToXlsx (properties)', () => {
  const header = sheetXml(
    `<sheetData><row r="1"><c r="A1" t="inlineStr">${s('Question')}</c><c r="B1" t="inlineStr">${s('Answer')}</c></row>` +
      [2, 3, 4, 5, 6].map((row) => `<row r="${row}"><c r="A${row}" t="inlineStr">${s(`Q${row}`)}</c></row>`).join('') +
      `</sheetData>`,
  );
  const base = handmadeWorkbook(header);
  const target: WriteTarget = {
    sheet: SHEET,
    headerRow: 1,
    questionColumn: 1,
    answerColumn: 2,
    commentsColumn: null,
    allowedValues: null,
  };

  it('reads back every answer as written, after the documented cleaning', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(answerText, { minLength: 1, maxLength: 5 }), async (texts) => {
        const answers = texts.map((answer, i) => ({ sheet: SHEET, row: i + 2, answer }));
        const cells = readCells(await writeAnswersToXlsx(base, [target], answers));
        texts.forEach((answer, i) => {
          const expected = cleanCellText(answer);
          // Empty text writes nothing: the cell stays as it was (absent here).
          expect(cells[`B${i + 2}`]).toBe(expected === '' ? undefined : expected);
          expect(cells[`A${i + 2}`]).toBe(`Q${i + 2}`);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('on any sparse sheet, writes every answer and leaves every other cell as it was', async () => {
    // A sheet: some rows, each with some cells, with or without `r` on rows and cells.
    const sparseSheet = fc.record({
      rows: fc.uniqueArray(
        fc.record({
          row: fc.integer({ min: 1, max: 30 }),
          columns: fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { maxLength: 5 }),
          implicit: fc.boolean(),
        }),
        { selector: (r) => r.row, maxLength: 12 },
      ),
      answers: fc.uniqueArray(
        fc.record({ row: fc.integer({ min: 3, max: 40 }), text: fc.string({ minLength: 1, maxLength: 8 }) }),
        { selector: (a) => a.row, maxLength: 10 },
      ),
      answerColumn: fc.integer({ min: 2, max: 10 }),
    });
    await fc.assert(
      fc.asyncProperty(sparseSheet, async ({ rows, answers, answerColumn }) => {
        const sorted = [...rows].sort((a, b) => a.row - b.row);
        const expected = new Map<string, unknown>();
        let previousRow = 0;
        const rowsXml = sorted.map(({ row, columns, implicit }) => {
          // A row may omit `r` only when it directly follows the previous one; cells likewise.
          const rowRef = implicit && row === previousRow + 1 ? '' : ` r="${row}"`;
          previousRow = row;
          let previousColumn = 0;
          const cells = [...columns]
            .sort((a, b) => a - b)
            .map((column) => {
              const ref = `${columnLetters(column)}${row}`;
              const cellRef = implicit && column === previousColumn + 1 ? '' : ` r="${ref}"`;
              previousColumn = column;
              expected.set(ref, `${ref}!`);
              return `<c${cellRef} t="inlineStr">${s(`${ref}!`)}</c>`;
            });
          return `<row${rowRef}>${cells.join('')}</row>`;
        });
        const original = handmadeWorkbook(sheetXml(`<sheetData>${rowsXml.join('')}</sheetData>`));
        const written = answers.map((a) => ({ sheet: SHEET, row: a.row, answer: a.text }));
        const out = await writeAnswersToXlsx(original, [{ ...target, headerRow: 2, answerColumn }], written);
        for (const a of answers) {
          const cleaned = cleanCellText(a.text);
          expected.set(
            `${columnLetters(answerColumn)}${a.row}`,
            cleaned === '' ? expected.get(`${columnLetters(answerColumn)}${a.row}`) : cleaned,
          );
        }
        const defined = [...expected].filter(([, v]) => v !== undefined);
        expect(readCells(out)).toEqual(Object.fromEntries(defined));
      }),
      { numRuns: 150 },
    );
  });
});
