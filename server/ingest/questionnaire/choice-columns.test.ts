import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { xlsxOf } from '../../../test/fixtures/questionnaire/intake';
import { findChoiceColumns } from './choice-columns';
import { readQuestionnaire } from './intake';
import type { RawSheet } from './types';
import { type AnswerCell, type WriteTarget, writeAnswersToXlsx } from './write-xlsx';

const sheetOf = (rows: string[][]): RawSheet => ({ name: 'Sheet', hidden: false, rows, merges: [], validations: [] });

const QUESTIONS = [
  'Do you encrypt customer data at rest?',
  'Do you require MFA for administrators?',
  'Do you run yearly penetration tests?',
];

describe('answer-choice columns', () => {
  it('are found in the header row over cells holding only marks, with the mark each column uses', () => {
    const found = findChoiceColumns(
      sheetOf([
        ['Ref', 'Question', 'Yes', 'No', 'N/A', 'Comments'],
        ['Q-1', QUESTIONS[0] ?? '', '✓', '', '', ''],
        ['Q-2', QUESTIONS[1] ?? '', '', '✓', '', 'Planned'],
        ['Q-3', QUESTIONS[2] ?? '', '', '', '', ''],
      ]),
      0,
    );
    expect(found).toEqual({
      row: 0,
      choices: [
        { column: 2, label: 'Yes', mark: '✓' },
        { column: 3, label: 'No', mark: '✓' },
        { column: 4, label: 'N/A', mark: '✓' },
      ],
    });
  });

  it('copy labels written as marks under their own column, and mark with X where the sheet shows none', () => {
    const labels = findChoiceColumns(
      sheetOf([
        ['Question', 'Yes', 'No', 'Not Applicable'],
        [QUESTIONS[0] ?? '', 'Yes', '', ''],
        [QUESTIONS[1] ?? '', '', 'No', ''],
      ]),
      0,
    );
    expect(labels?.choices.map((choice) => choice.mark)).toEqual(['Yes', 'No', 'Not Applicable']);
    const blank = findChoiceColumns(sheetOf([['Question', 'Yes', 'No'], [QUESTIONS[0] ?? '']]), 0);
    expect(blank?.choices.map((choice) => choice.mark)).toEqual(['X', 'X']);
  });

  it('are not columns headed Yes and No that hold explanations, nor a first data row of answers', () => {
    const explained = sheetOf([
      ['Question', 'Yes', 'No'],
      [QUESTIONS[0] ?? '', 'AES-256 on every volume', ''],
      [QUESTIONS[1] ?? '', '', 'Planned for next year'],
    ]);
    expect(findChoiceColumns(explained, 0)).toBeNull();
    const answered = sheetOf([
      ['Question', 'Answer', ''],
      [QUESTIONS[0] ?? '', 'Yes', 'No'],
    ]);
    expect(findChoiceColumns(answered, 0)).toBeNull();
  });

  it('count a row marked under any of them as answered, and keep "No" from being taken for a number column', async () => {
    const intake = await readQuestionnaire(
      await xlsxOf((workbook) => {
        const sheet = workbook.addWorksheet('Q');
        sheet.addRow(['Ref', 'Question', 'Yes', 'No', 'N/A', 'Comments']);
        sheet.addRow(['Q-1', QUESTIONS[0], null, 'x']);
        sheet.addRow(['Q-2', QUESTIONS[1], null, null, '1']);
        sheet.addRow(['Q-3', QUESTIONS[2]]);
      }),
      'q.xlsx',
    );
    expect(intake.mappings[0]).toMatchObject({ idColumn: 0, answerColumn: 2, commentsColumn: 5 });
    expect(intake.questions.map((q) => q.existingAnswer)).toEqual(['No', 'N/A', null]);
  });
});

describe('writing a mark under a choice column', () => {
  const target: WriteTarget = {
    sheet: 'Q',
    headerRow: 1,
    questionColumn: 1,
    answerColumn: 5,
    commentsColumn: null,
    allowedValues: null,
    choiceColumns: [
      { column: 2, label: 'Yes', mark: 'X' },
      { column: 3, label: 'No', mark: 'X' },
      { column: 4, label: 'Not Applicable', mark: 'X' },
    ],
  };
  const answer = (row: number, shortAnswer: AnswerCell['shortAnswer']): AnswerCell => ({
    sheet: 'Q',
    row,
    answer: `${shortAnswer ?? 'Maybe'}. Answer ${row}.`,
    shortAnswer,
  });

  it('marks a row whose choice cells show nothing, and never one holding a mark, a formula or text', async () => {
    const original = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Q');
      sheet.addRow(['Question', 'Yes', 'No', 'Not Applicable', 'Notes']); // 1
      sheet.addRow([QUESTIONS[0], '', '', '']); // 2: empty strings, as some exporters write blank cells
      sheet.addRow([QUESTIONS[1]]); // 3: no cells at all
      sheet.addRow([QUESTIONS[2], null, 'x']); // 4: the customer said No
      sheet.addRow(['Is the data centre certified?', null, null, { formula: 'IF(A1="","","x")', result: '' }]); // 5
      sheet.addRow(['Do you use subcontractors?', ' ']); // 6: a blank typed in
      sheet.addRow(['Do you scan dependencies?']); // 7: no short answer
    });
    const out = await writeAnswersToXlsx(
      original,
      [target],
      [answer(2, 'Yes'), answer(3, 'N/A'), answer(4, 'Yes'), answer(5, 'No'), answer(6, 'No'), answer(7, null)],
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(out) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet('Q');
    const row = (r: number) => ['B', 'C', 'D'].map((c) => sheet?.getCell(`${c}${r}`).value ?? null);
    expect(row(2)).toEqual(['X', '', '']);
    expect(row(3)).toEqual([null, null, 'X']);
    expect(row(4)).toEqual([null, 'x', null]);
    expect(row(5)).toEqual([null, null, expect.objectContaining({ formula: 'IF(A1="","","x")' })]);
    expect(row(6)).toEqual([' ', null, null]);
    expect(row(7)).toEqual([null, null, null]);
    // The written answer still goes to the notes column on every row given one.
    expect(sheet?.getCell('E4').value).toBe('Yes. Answer 4.');
  });

  it('refuses choice columns outside the sheet or over the question', async () => {
    const original = await xlsxOf((workbook) => workbook.addWorksheet('Q').addRow(['Question']));
    for (const column of [0, 1, 16_385]) {
      const bad = { ...target, choiceColumns: [{ column, label: 'Yes', mark: 'X' }] };
      await expect(writeAnswersToXlsx(original, [bad], [])).rejects.toMatchObject({ reason: 'invalid_target' });
    }
  });
});
