import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvToIntake, readQuestionnaire } from './intake';
import { docxQuestionnaire, xlsOf } from '../../../test/fixtures/questionnaire/intake';
import { QuestionnaireError } from './types';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('CSV', () => {
  it('reads a header, the answer and comments columns, and keeps row numbers as in the file', async () => {
    const csv = [
      'Security questionnaire for Acme,,',
      '',
      'ID,Question,Answer,Comments',
      'IAM-01,"Do you enforce MFA, including for contractors?",Yes,"Since 2021"',
      ',Data Protection,,',
      'DSP-07.1,"Describe how data is classified.",,',
    ].join('\r\n');
    const intake = await readQuestionnaire(utf8(csv), 'questions.csv');
    expect(intake.format).toBe('csv');
    expect(intake.mappings).toEqual([
      { sheet: 'CSV', headerRow: 2, questionColumn: 1, answerColumn: 2, commentsColumn: 3, idColumn: 0 },
    ]);
    expect(intake.questions).toEqual([
      {
        sheet: 'CSV',
        row: 4,
        controlId: 'IAM-01',
        question: 'Do you enforce MFA, including for contractors?',
        section: null,
        allowedValues: null,
        existingAnswer: 'Yes',
        answerHint: null,
        existingComment: 'Since 2021',
      },
      {
        sheet: 'CSV',
        row: 6,
        controlId: 'DSP-07.1',
        question: 'Describe how data is classified.',
        section: 'Data Protection',
        allowedValues: null,
        existingAnswer: null,
        answerHint: null,
        existingComment: null,
      },
    ]);
  });

  it('sniffs semicolons and tabs, drops the BOM and reads Windows-1252', async () => {
    const semicolon = await readQuestionnaire(
      utf8('\ufeffFrage;Question;Réponse\n1;Do you log access to data?;Oui\n'),
      'q.csv',
    );
    expect(semicolon.questions).toEqual([
      expect.objectContaining({ question: 'Do you log access to data?', existingAnswer: 'Oui' }),
    ]);
    expect(semicolon.sheets[0]?.columns).toEqual(['Frage', 'Question', 'Réponse']);

    const tab = await readQuestionnaire(utf8('Question\tResponse\nIs data encrypted at rest?\tYes\n'), 'q.tsv');
    expect(tab.questions).toEqual([
      expect.objectContaining({ question: 'Is data encrypted at rest?', existingAnswer: 'Yes' }),
    ]);

    // "Sécurité" in Windows-1252: é is 0xE9, invalid as UTF-8.
    const latin = Uint8Array.from([
      ...utf8('Question,Answer\nDo you have a S'),
      0xe9,
      ...utf8('curit'),
      0xe9,
      ...utf8(' officer?,Yes\n'),
    ]);
    const windows = await readQuestionnaire(latin, 'q.csv');
    expect(windows.questions[0]?.question).toBe('Do you have a Sécurité officer?');

    const excelHint = await readQuestionnaire(
      utf8('sep=;\nQuestion;Answer\nAre passwords hashed with a salt?;\n'),
      'q.csv',
    );
    expect(excelHint.questions).toEqual([
      expect.objectContaining({ row: 3, question: 'Are passwords hashed with a salt?' }),
    ]);
  });

  it('never crashes on random rows: it reads them or refuses them with a QuestionnaireError', async () => {
    const cell = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        'Question',
        'Answer',
        'Do you encrypt data?',
        'Yes',
        '',
        '"',
        ',',
        ';',
        '\n',
        '\t',
        '=1+1',
        'A.1.2',
      ),
    );
    const rows = fc.array(fc.array(cell, { maxLength: 6 }), { maxLength: 25 });
    const separator = fc.constantFrom(',', ';', '\t', '|');
    await fc.assert(
      fc.asyncProperty(rows, separator, async (table, sep) => {
        const csv = table.map((row) => row.join(sep)).join('\n');
        try {
          const intake = await readQuestionnaire(utf8(csv), 'random.csv');
          expect(intake.questions.length).toBeGreaterThan(0);
          for (const question of intake.questions) {
            expect(question.question.length).toBeGreaterThanOrEqual(8);
            expect(question.row).toBeGreaterThanOrEqual(1);
          }
        } catch (error) {
          expect(error).toBeInstanceOf(QuestionnaireError);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('csvToIntake (PRODUCT import-csv: headers optional, one question per row)', () => {
  it('without a header, takes the first column holding text', () => {
    const intake = csvToIntake(
      '1,Do you have an incident response plan?\n2,How quickly do you notify customers of a breach?\n',
    );
    expect(intake.mappings).toEqual([
      { sheet: 'CSV', headerRow: -1, questionColumn: 1, answerColumn: null, commentsColumn: null, idColumn: null },
    ]);
    expect(intake.questions.map((q) => [q.row, q.question])).toEqual([
      [1, 'Do you have an incident response plan?'],
      [2, 'How quickly do you notify customers of a breach?'],
    ]);
  });

  it('keeps plain one-per-line items that do not read like questions', () => {
    const intake = csvToIntake('Incident response plan\nBreach notification timeline\nPenetration test results\n');
    expect(intake.questions.map((q) => q.question)).toEqual([
      'Incident response plan',
      'Breach notification timeline',
      'Penetration test results',
    ]);
  });

  it('takes very short questions too, one per row', () => {
    const intake = csvToIntake('MFA?\nSSO?\n');
    expect(intake.questions.map((q) => [q.row, q.question])).toEqual([
      [1, 'MFA?'],
      [2, 'SSO?'],
    ]);
  });

  it('with a header, takes the question column', () => {
    const intake = csvToIntake('Category,Question,Notes\nHR,Are employees trained on security yearly?,\n');
    expect(intake.questions).toEqual([
      expect.objectContaining({ question: 'Are employees trained on security yearly?', section: 'HR' }),
    ]);
  });

  it('refuses content without questions', () => {
    expect(() => csvToIntake('')).toThrow(QuestionnaireError);
    expect(() => csvToIntake('1,2,3\n4,5,6\n')).toThrow(
      'No questions were found in this file. Check that it has a column of questions.',
    );
  });
});

describe('legacy .xls', () => {
  it('reads a BIFF workbook like an .xlsx', async () => {
    const bytes = xlsOf([
      ['Supplier Assessment'],
      [],
      ['Ref', 'Question', 'Response'],
      ['1.1', 'Is there a documented access control policy?', 'Yes'],
      ['1.2', 'Provide your most recent penetration test summary.', ''],
    ]);
    const intake = await readQuestionnaire(bytes, 'legacy.xls');
    expect(intake.format).toBe('xls');
    expect(intake.mappings).toEqual([
      { sheet: 'Questions', headerRow: 2, questionColumn: 1, answerColumn: 2, commentsColumn: null, idColumn: 0 },
    ]);
    expect(intake.questions.map((q) => [q.row, q.controlId, q.existingAnswer])).toEqual([
      [4, '1.1', 'Yes'],
      [5, '1.2', null],
    ]);
  });

  it('reads an HTML table saved with an .xls name, as older systems export', async () => {
    const html =
      '<html><body><table><tr><td>Question</td><td>Answer</td></tr><tr><td>Do you scan for vulnerabilities weekly?</td><td></td></tr></table></body></html>';
    const intake = await readQuestionnaire(utf8(html), 'export.xls');
    expect(intake.format).toBe('xls');
    expect(intake.questions).toEqual([
      expect.objectContaining({ row: 2, question: 'Do you scan for vulnerabilities weekly?' }),
    ]);
  });
});

describe('Word tables', () => {
  it('reads every table as a sheet, with merged section rows and cells merged down', async () => {
    const intake = await readQuestionnaire(await docxQuestionnaire(), 'due diligence.docx');
    expect(intake.format).toBe('docx');
    expect(intake.sheets.map((sheet) => [sheet.name, sheet.questionCount])).toEqual([
      ['Table 1', 2],
      ['Table 2', 1],
    ]);
    expect(intake.mappings[0]).toEqual({
      sheet: 'Table 1',
      headerRow: 0,
      questionColumn: 1,
      answerColumn: 2,
      commentsColumn: null,
      idColumn: 0,
    });
    expect(intake.questions).toEqual([
      {
        sheet: 'Table 1',
        row: 3,
        controlId: 'G.1',
        question: 'Do you have an information security policy approved by management?',
        section: 'Governance',
        allowedValues: null,
        existingAnswer: 'Yes',
        answerHint: null,
        existingComment: null,
      },
      {
        sheet: 'Table 1',
        row: 4,
        controlId: null,
        question: 'Describe how often the policy is reviewed.',
        section: 'Governance',
        allowedValues: null,
        existingAnswer: null,
        answerHint: null,
        existingComment: null,
      },
      expect.objectContaining({ sheet: 'Table 2', row: 2, question: 'Is data backed up daily?' }),
    ]);
  });
});
