import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { addListValidation, xlsxOf } from '../../../test/fixtures/questionnaire/intake';
import { chooseGradedValue } from './write-choice';
import { type AnswerCell, type WriteTarget, writeAnswersToXlsx } from './write-xlsx';

const GRADED = ['No', 'Yes, for some applications', 'Yes, for all applications'];
const HOSTING = ['On-premises', 'Public cloud', 'Hybrid'];

/** A form with contact fields above its header, a Yes/No row, a row with a list of its own and a graded row. */
function form(): Promise<Uint8Array> {
  return xlsxOf((workbook) => {
    const sheet = workbook.addWorksheet('Form');
    sheet.addRow(['GNRL-01', 'Vendor Name', 'Vendor Name']); // 1
    sheet.addRow(['ID', 'Question', 'Answer', 'Comments']); // 2
    sheet.addRow(['Q-1', 'Do you encrypt data at rest?']); // 3
    sheet.addRow(['Q-2', 'Select your hosting option.']); // 4
    sheet.addRow(['Q-3', 'Do you scan code for defects?']); // 5
    sheet.addRow(['Q-4', 'Do you train developers?', '', 'Customer note: ask Bob']); // 6
    addListValidation(sheet, 'C3', '"Yes,No"');
    addListValidation(sheet, 'C6', '"Yes,No"');
    addListValidation(sheet, 'C4', `"${HOSTING.join(',')}"`);
    const lookups = workbook.addWorksheet('Lookups');
    GRADED.forEach((value) => lookups.addRow([value]));
    addListValidation(sheet, 'C5', 'Lookups!$A$1:$A$3');
  });
}

const target: WriteTarget = {
  sheet: 'Form',
  headerRow: 2,
  questionColumn: 2,
  answerColumn: 3,
  commentsColumn: 4,
  allowedValues: ['Yes', 'No'],
};

async function written(answers: AnswerCell[]): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  const out = await writeAnswersToXlsx(await form(), [target], answers);
  await workbook.xlsx.load(Buffer.from(out) as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet('Form');
  if (!sheet) throw new Error('no sheet');
  return sheet;
}

const text = (sheet: ExcelJS.Worksheet, ref: string) => sheet.getCell(ref).value ?? null;

describe('writing answers row by row', () => {
  it('gives each dropdown a value from its own list, and leaves one whose list has none', async () => {
    const sheet = await written([
      { sheet: 'Form', row: 3, answer: 'Yes, AES-256.', shortAnswer: 'Yes', allowedValues: ['Yes', 'No'] },
      { sheet: 'Form', row: 4, answer: 'Yes, we host on AWS.', shortAnswer: 'Yes', allowedValues: HOSTING },
    ]);
    expect(text(sheet, 'C3')).toBe('Yes');
    expect(text(sheet, 'D3')).toBe('Yes, AES-256.');
    expect(text(sheet, 'C4')).toBeNull();
    expect(text(sheet, 'D4')).toBe('Yes, we host on AWS.');
  });

  it('picks a graded value the answer supports, else leaves it empty and says so in the comments', async () => {
    const sure = await written([
      {
        sheet: 'Form',
        row: 5,
        answer: 'Yes. Every repository is scanned: all applications, on every pull request.',
        shortAnswer: 'Yes',
        allowedValues: GRADED,
      },
    ]);
    expect(text(sure, 'C5')).toBe('Yes, for all applications');
    const vague = await written([
      { sheet: 'Form', row: 5, answer: 'Yes, with Semgrep.', shortAnswer: 'Yes', allowedValues: GRADED },
    ]);
    expect(text(vague, 'C5')).toBeNull();
    expect(String(text(vague, 'D5'))).toContain('Dropdown left empty');
    expect(String(text(vague, 'D5'))).toContain('"Yes, for some applications"');
  });

  it('leaves a comment the customer already wrote', async () => {
    const sheet = await written([
      {
        sheet: 'Form',
        row: 6,
        answer: 'Yes, yearly.',
        shortAnswer: 'Yes',
        allowedValues: ['Yes', 'No'],
        keepComments: true,
      },
    ]);
    expect(text(sheet, 'C6')).toBe('Yes');
    expect(text(sheet, 'D6')).toBe('Customer note: ask Bob');
  });

  it('writes a form field above the first header into the first table’s answer column', async () => {
    const sheet = await written([{ sheet: 'Form', row: 1, answer: 'Acme Corp', allowedValues: null }]);
    expect(text(sheet, 'C1')).toBe('Acme Corp');
    expect(text(sheet, 'D1')).toBeNull();
  });
});

describe('graded dropdown values', () => {
  it('never guesses between grades the answer does not tell apart', () => {
    expect(chooseGradedValue('Yes', GRADED, 'Yes.')).toBeNull();
    expect(chooseGradedValue('No', GRADED, 'No, not yet.')).toBe('No');
    expect(chooseGradedValue('Yes', GRADED, 'Yes, for some applications only.')).toBe('Yes, for some applications');
    expect(chooseGradedValue('Yes', ['Yes', 'No'], 'Yes, for all of them')).toBe('Yes');
  });
});
