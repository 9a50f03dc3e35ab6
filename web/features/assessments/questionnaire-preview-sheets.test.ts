import { describe, expect, it } from 'vitest';
import type { PreviewResponse, SheetMapping } from '../../../common/schemas/assessments';
import {
  arrangeSheets,
  notImportedSummary,
  sheetStatus,
  writtenColumns,
  type SheetContext,
} from './questionnaire-preview-sheets';

type PreviewSheet = PreviewResponse['sheets'][number];

const HEADERS = ['ID', 'Question', 'Vendor Answers', 'Additional Information', 'Yes', 'No', 'N/A'];

function mapping(sheet: string, overrides: Partial<SheetMapping> = {}): SheetMapping {
  return { sheet, headerRow: 0, questionColumn: 1, answerColumn: 2, commentsColumn: 3, idColumn: 0, ...overrides };
}

function sheet(name: string, overrides: Partial<PreviewSheet> = {}): PreviewSheet {
  return {
    name,
    hidden: false,
    rowCount: 10,
    columns: HEADERS,
    mapping: null,
    questionCount: 0,
    prefilledAnswers: 0,
    dropdownQuestions: 0,
    skipped: null,
    ...overrides,
  };
}

function imported(name: string, questionCount: number, overrides: Partial<PreviewSheet> = {}): PreviewSheet {
  return sheet(name, { mapping: mapping(name), questionCount, ...overrides });
}

const NO_CONTEXT: SheetContext = { detected: [], detectedSkips: {} };

describe('sheetStatus', () => {
  it('says imported for a sheet with columns', () => {
    expect(sheetStatus(imported('Vendor Response', 9), NO_CONTEXT)).toEqual({ imported: true });
  });

  it("explains a sheet detection judged not for answering with the server's reason", () => {
    const reference = sheet('Analyst Reference', { skipped: 'it repeats the questions of "Vendor Response"' });
    expect(sheetStatus(reference, NO_CONTEXT)).toEqual({
      imported: false,
      reason: 'not-for-answering',
      explanation: 'Questions found, but not imported because it repeats the questions of "Vendor Response".',
    });
  });

  it('keeps the reason from the first preview once the user changed columns (a chosen mapping is not judged)', () => {
    const context = { ...NO_CONTEXT, detectedSkips: { ChangeLog: 'its name says it is a reference sheet.' } };
    expect(sheetStatus(sheet('ChangeLog'), context)).toMatchObject({
      reason: 'not-for-answering',
      explanation: 'Questions found, but not imported because its name says it is a reference sheet.',
    });
  });

  it('tells a sheet the user left out from one with no questions', () => {
    const context: SheetContext = {
      detected: [mapping('One'), mapping('Two')],
      detectedSkips: {},
      chosen: [mapping('Two'), mapping('Three')],
    };
    expect(sheetStatus(sheet('One'), context)).toEqual({
      imported: false,
      reason: 'left-out',
      explanation: 'You chose not to import it.',
    });
    expect(sheetStatus(sheet('Three'), context)).toMatchObject({
      reason: 'no-questions',
      explanation: 'No questions found in the column you chose.',
    });
    expect(sheetStatus(sheet('Instructions'), context)).toMatchObject({
      reason: 'no-questions',
      explanation: 'No questions found on it.',
    });
  });
});

describe('arrangeSheets', () => {
  it('puts the imported sheets first, most questions first, and the rest in a group of their own', () => {
    // HECVAT's order: the questionnaire is the third of many sheets.
    const sheets = [
      sheet('Introduction'),
      sheet('Instructions'),
      imported('Vendor Response', 255),
      sheet('Analyst Report', { skipped: 'its name says it is a reference sheet, not one to answer' }),
      imported('Product', 41),
      sheet('Values', { hidden: true }),
      imported('Privacy', 65),
    ];
    const { main, others } = arrangeSheets(sheets, NO_CONTEXT);
    expect(main.map((s) => s.sheet.name)).toEqual(['Vendor Response', 'Privacy', 'Product']);
    expect(others.map((s) => s.sheet.name)).toEqual(['Analyst Report', 'Introduction', 'Instructions', 'Values']);
  });

  it('keeps a sheet the user left out with the imported ones, after them, to bring back', () => {
    const context: SheetContext = {
      detected: [mapping('One'), mapping('Two')],
      detectedSkips: {},
      chosen: [mapping('Two')],
    };
    const { main, others } = arrangeSheets([sheet('One'), imported('Two', 3), sheet('Notes')], context);
    expect(main.map((s) => s.sheet.name)).toEqual(['Two', 'One']);
    expect(others.map((s) => s.sheet.name)).toEqual(['Notes']);
  });
});

describe('notImportedSummary', () => {
  it('counts the sheets not imported by reason', () => {
    const { others } = arrangeSheets(
      [
        imported('Vendor Response', 9),
        sheet('Analyst Reference', { skipped: 'it repeats the questions of "Vendor Response"' }),
        sheet('Instructions'),
        sheet('Lists', { hidden: true }),
      ],
      NO_CONTEXT,
    );
    expect(notImportedSummary(others, 'sheet')).toBe('3 sheets not imported: 1 not for answering, 2 without questions');
    expect(notImportedSummary(others.slice(1), 'sheet')).toBe('2 sheets not imported (without questions)');
    expect(notImportedSummary(others.slice(1, 2), 'table')).toBe('1 table not imported (without questions)');
  });
});

describe('writtenColumns', () => {
  it('names the comments column that takes the full answer beside a dropdown', () => {
    const hecvat = imported('Vendor Response', 4, { dropdownQuestions: 4 });
    expect(writtenColumns(hecvat, 'xlsx')).toEqual({
      columns: [
        { label: 'C · Vendor Answers', content: 'A value from its dropdown list' },
        { label: 'D · Additional Information', content: 'The full answer' },
      ],
      note: null,
    });
    const some = writtenColumns(imported('Vendor Response', 4, { dropdownQuestions: 3 }), 'xlsx');
    expect(some.columns.map((c) => c.content)).toEqual([
      'A value from its dropdown list; the answer itself where a row has no list',
      'The full answer, on rows with a dropdown',
    ]);
  });

  it('writes the answer to the answer column alone when no cell is a dropdown', () => {
    expect(writtenColumns(imported('Security', 5), 'xlsx').columns).toEqual([
      { label: 'C · Vendor Answers', content: 'The answer' },
    ]);
    // A Word table with a dropdown but no comments column keeps the whole answer in the answer cell.
    const word = imported('Table 2', 5, {
      dropdownQuestions: 5,
      mapping: mapping('Table 2', { commentsColumn: null }),
    });
    expect(writtenColumns(word, 'docx').columns).toEqual([{ label: 'C · Vendor Answers', content: 'The answer' }]);
  });

  it('names the columns a workbook adds, and says when a Word table has nowhere to write', () => {
    const noAnswer = mapping('Sheet1', { answerColumn: null, commentsColumn: null });
    expect(writtenColumns(imported('Sheet1', 5, { mapping: noAnswer }), 'csv').columns).toEqual([
      { label: 'New Response column', content: 'The answer' },
    ]);
    const dropdownNoComments = mapping('Sheet1', { commentsColumn: null });
    expect(
      writtenColumns(imported('Sheet1', 5, { mapping: dropdownNoComments, dropdownQuestions: 5 }), 'xls').columns,
    ).toEqual([
      { label: 'C · Vendor Answers', content: 'A value from its dropdown list' },
      { label: 'New Comments column', content: 'The full answer' },
    ]);
    const word = writtenColumns(imported('Table 1', 1, { mapping: noAnswer }), 'docx');
    expect(word.columns).toEqual([]);
    expect(word.note).toMatch(/cannot come back filled in/);
  });

  it('names the choice columns marked and the column taking the text on a sheet answered by marks', () => {
    const choices = [
      { column: 4, label: 'Yes', mark: '✓' },
      { column: 5, label: 'No', mark: '✓' },
      { column: 6, label: 'N/A', mark: '✓' },
    ];
    const marks = imported('CAIQ', 3, { mapping: mapping('CAIQ', { answerChoiceColumns: choices }) });
    expect(writtenColumns(marks, 'xlsx').columns).toEqual([
      { label: 'E · Yes, F · No, G · N/A', content: '“✓” under the chosen answer' },
      { label: 'D · Additional Information', content: 'The answer' },
    ]);
    const noNotes = imported('CAIQ', 3, {
      mapping: mapping('CAIQ', { answerChoiceColumns: choices, commentsColumn: null }),
    });
    expect(writtenColumns(noNotes, 'csv').columns[1]).toEqual({ label: 'New Response column', content: 'The answer' });
  });

  it('writes nothing for a sheet not imported', () => {
    expect(writtenColumns(sheet('Instructions'), 'xlsx')).toEqual({ columns: [], note: null });
  });
});
