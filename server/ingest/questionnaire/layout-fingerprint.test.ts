import { describe, expect, it } from 'vitest';
import { xlsxOf } from '../../../test/fixtures/questionnaire/intake';
import { headerCells, idPattern, idShape, layoutFingerprint, sheetNamesKey } from './layout-fingerprint';
import { readXlsx } from './read-xlsx';
import type { Mapping } from './types';

type Question = { id: string; question: string; answer: string };

/**
 * A customer's questionnaire of one template: a title block naming the customer, the header on row 4, ids in column
 * B and questions in column C, a list sheet of answer values.
 */
async function templateFile(
  customer: string,
  questions: readonly Question[],
  options: { sheet?: string; answerLabel?: string } = {},
): Promise<Uint8Array> {
  return xlsxOf((workbook) => {
    const sheet = workbook.addWorksheet(options.sheet ?? 'Vendor Questions');
    sheet.getCell('A1').value = `Security review for ${customer}`;
    sheet.getCell('A2').value = `Sent on ${new Date(Date.UTC(2026, 0, customer.length)).toISOString().slice(0, 10)}`;
    sheet.getRow(4).values = ['', 'Ref', 'Item', options.answerLabel ?? 'Reply', 'Remarks'];
    questions.forEach((q, index) => {
      sheet.getRow(5 + index).values = ['', q.id, q.question, q.answer, ''];
    });
    workbook.addWorksheet('Lists').getCell('A1').value = 'Yes';
  });
}

const SHEET_MAPPING: Mapping = {
  sheet: 'Vendor Questions',
  headerRow: 3,
  questionColumn: 2,
  answerColumn: 3,
  commentsColumn: 4,
  idColumn: 1,
};
const MAPPING: Mapping[] = [SHEET_MAPPING];

const FIRST: Question[] = [
  { id: 'ACC-01', question: 'Is multi-factor authentication enforced?', answer: 'Yes' },
  { id: 'ACC-02', question: 'Are access rights reviewed every quarter?', answer: '' },
  { id: 'NET-01', question: 'Is the production network segmented?', answer: 'No' },
];
const SECOND: Question[] = [
  { id: 'DAT-07', question: 'Is customer data encrypted at rest?', answer: '' },
  { id: 'DAT-08', question: 'Are backups tested every year?', answer: 'Yes, every quarter.' },
  { id: 'LOG-11', question: 'Are security logs kept for a year?', answer: '' },
  { id: 'LOG-12', question: 'Are administrator actions logged?', answer: 'No' },
];

async function fingerprintOf(bytes: Uint8Array, mapping: readonly Mapping[] = MAPPING): Promise<string> {
  return layoutFingerprint(readXlsx(bytes).sheets, mapping);
}

describe('layoutFingerprint', () => {
  it('is the same for two files of one layout with other customers, questions and answers', async () => {
    const first = await templateFile('Acme Corp', FIRST);
    const second = await templateFile('Globex International', SECOND);
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false);
    expect(await fingerprintOf(first)).toBe(await fingerprintOf(second));
  });

  it('differs when a sheet is renamed', async () => {
    const renamed = await templateFile('Acme Corp', FIRST, { sheet: 'Supplier Questions' });
    const mapping = [{ ...SHEET_MAPPING, sheet: 'Supplier Questions' }];
    expect(await fingerprintOf(renamed, mapping)).not.toBe(await fingerprintOf(await templateFile('Acme Corp', FIRST)));
  });

  it('differs when a header label changes', async () => {
    const changed = await templateFile('Acme Corp', FIRST, { answerLabel: 'Supplier answer' });
    expect(await fingerprintOf(changed)).not.toBe(await fingerprintOf(await templateFile('Acme Corp', FIRST)));
  });

  it('differs when the ids follow another pattern', async () => {
    const numbered = FIRST.map((q, index) => ({ ...q, id: `1.${String(index + 1)}` }));
    expect(await fingerprintOf(await templateFile('Acme Corp', numbered))).not.toBe(
      await fingerprintOf(await templateFile('Acme Corp', FIRST)),
    );
  });

  it('differs under another header row: the header cells are read where the mapping says', async () => {
    const bytes = await templateFile('Acme Corp', FIRST);
    expect(await fingerprintOf(bytes, [{ ...SHEET_MAPPING, headerRow: 0 }])).not.toBe(await fingerprintOf(bytes));
  });

  it('reads no sheet the mapping leaves out beyond its name', async () => {
    const { sheets } = readXlsx(await templateFile('Acme Corp', FIRST));
    const withOtherList = sheets.map((sheet) => (sheet.name === 'Lists' ? { ...sheet, rows: [['No']] } : sheet));
    expect(layoutFingerprint(withOtherList, MAPPING)).toBe(layoutFingerprint(sheets, MAPPING));
  });
});

describe('the parts of a fingerprint', () => {
  it('shapes ids letter by letter and digit by digit', () => {
    expect(idShape('IAM-02')).toBe('AAA-00');
    expect(idShape(' A.1.10 ')).toBe('A.0.00');
    expect(idShape('Ä 1')).toBe('A 0');
  });

  it('takes the most common id shape in the question rows, the first in code order on a tie', () => {
    const rows = [['Ref'], ['AB-01'], ['CD-02'], ['1.1'], [''], ['A very long text that is not an id at all']];
    const mapping = { sheet: 'S', headerRow: 0, idColumn: 0 };
    expect(idPattern(rows, mapping)).toBe('AA-00');
    expect(idPattern(rows, { ...mapping, firstRow: 3 })).toBe('0.0');
    expect(idPattern(rows, { ...mapping, lastRow: 1 })).toBe('AA-00');
    expect(idPattern([['Ref'], ['1.1'], ['AB-01']], mapping)).toBe('0.0');
    expect(idPattern(rows, { ...mapping, idColumn: null })).toBeNull();
  });

  it('compares header labels without case, extra spaces or empty cells at the end', () => {
    expect(headerCells([['  Question ', 'Vendor   Response', '', '']], 0)).toEqual(['question', 'vendor response']);
    expect(headerCells([['Question']], -1)).toEqual([]);
  });

  it('keys sheet names in order', () => {
    expect(sheetNamesKey([{ name: 'A' }, { name: 'B' }])).toBe(sheetNamesKey([{ name: 'A' }, { name: 'B' }]));
    expect(sheetNamesKey([{ name: 'A' }, { name: 'B' }])).not.toBe(sheetNamesKey([{ name: 'B' }, { name: 'A' }]));
  });
});
