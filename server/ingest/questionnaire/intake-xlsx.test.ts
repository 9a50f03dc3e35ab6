import { beforeAll, describe, expect, it } from 'vitest';
import { readQuestionnaire, readQuestionnaireSheets } from './intake';
import {
  addListValidation,
  caiqWorkbook,
  headerlessWorkbook,
  patchZipPart,
  vendorQuestionnaire,
  xlsxOf,
} from '../../../test/fixtures/questionnaire/intake';
import type { Intake, QuestionItem } from './types';

const YES_NO_NA = ['Yes', 'No', 'N/A'];

function bySheet(intake: Intake, sheet: string): QuestionItem[] {
  return intake.questions.filter((question) => question.sheet === sheet);
}

describe('readQuestionnaire on a typical vendor workbook', () => {
  let intake: Intake;
  beforeAll(async () => {
    intake = await readQuestionnaire(await vendorQuestionnaire(), 'Acme vendor assessment.xlsx');
  });

  it('skips the title block, finds the columns and keeps statement-style items', () => {
    expect(intake.format).toBe('xlsx');
    expect(intake.mappings[0]).toEqual({
      sheet: 'Security',
      headerRow: 4,
      questionColumn: 1,
      answerColumn: 2,
      commentsColumn: 3,
      idColumn: 0,
    });
    expect(bySheet(intake, 'Security')).toEqual([
      {
        sheet: 'Security',
        row: 7,
        controlId: '1.1',
        question: 'Do you enforce MFA for all remote access?',
        section: '1. Access Control',
        allowedValues: YES_NO_NA,
        existingAnswer: null,
        answerHint: null,
        existingComment: null,
      },
      {
        sheet: 'Security',
        row: 8,
        controlId: '1.2',
        question: 'Describe your password policy.',
        section: '1. Access Control',
        allowedValues: YES_NO_NA,
        existingAnswer: null,
        answerHint: null,
        existingComment: null,
      },
      {
        sheet: 'Security',
        row: 9,
        controlId: '1.3',
        question: 'Access to production is restricted to authorized personnel.',
        section: '1. Access Control',
        allowedValues: YES_NO_NA,
        existingAnswer: 'Yes',
        answerHint: null,
        existingComment: 'Reviewed quarterly',
      },
      {
        sheet: 'Security',
        row: 12,
        controlId: '2.1',
        // The formula's cached result, never "="Is customer data…"&…".
        question: 'Is customer data encrypted at rest?',
        section: '2. Encryption',
        allowedValues: YES_NO_NA,
        existingAnswer: null,
        answerHint: null,
        existingComment: null,
      },
      {
        sheet: 'Security',
        row: 13,
        controlId: '2.2',
        question: 'Provide the key management procedure.',
        section: '2. Encryption',
        allowedValues: YES_NO_NA,
        existingAnswer: null,
        answerHint: null,
        existingComment: null,
      },
      {
        sheet: 'Security',
        row: 18,
        controlId: '2.5',
        question: 'List the third parties that process customer data.',
        section: '2. Encryption',
        allowedValues: YES_NO_NA,
        existingAnswer: null,
        answerHint: null,
        existingComment: null,
      },
    ]);
  });

  it('reads every sheet, each with its own columns, and resolves range and defined-name dropdowns', () => {
    expect(intake.sheets.map((sheet) => [sheet.name, sheet.hidden, sheet.questionCount])).toEqual([
      ['Instructions', false, 0],
      ['Security', false, 6],
      ['Privacy', false, 2],
      ['Resilience', false, 1],
      ['Lists', true, 0],
    ]);
    expect(intake.mappings.map((mapping) => mapping.sheet)).toEqual(['Security', 'Privacy', 'Resilience']);
    expect(intake.sheets.find((sheet) => sheet.name === 'Instructions')?.mapping).toBeNull();
    expect(intake.sheets.find((sheet) => sheet.name === 'Privacy')?.columns).toEqual([
      'Control ID',
      'Requirement',
      'Vendor Answer',
      'Evidence',
    ]);
    expect(bySheet(intake, 'Privacy')).toEqual([
      expect.objectContaining({
        row: 2,
        controlId: 'PRV-01',
        question: 'Personal data is processed only on documented instructions.',
        allowedValues: YES_NO_NA,
      }),
      expect.objectContaining({ row: 3, controlId: 'PRV-02', allowedValues: YES_NO_NA }),
    ]);
    expect(intake.mappings[1]).toMatchObject({ answerColumn: 2, commentsColumn: 3, idColumn: 0 });
    expect(bySheet(intake, 'Resilience')).toEqual([
      expect.objectContaining({ row: 2, controlId: '1', allowedValues: YES_NO_NA }),
    ]);
    expect(intake.notes).toEqual([]);
  });
});

describe('readQuestionnaire on other layouts', () => {
  it('reads a CAIQ-like layout: the consensus question, the question id, X-marked answer sub-columns', async () => {
    const intake = await readQuestionnaire(await caiqWorkbook(), 'CAIQ.xlsx');
    expect(intake.mappings).toEqual([
      {
        sheet: 'CAIQ v3.0.1',
        headerRow: 2,
        questionColumn: 4,
        answerColumn: 5,
        commentsColumn: 8,
        idColumn: 2,
        // The customer marks with "X"; an empty column gets the sheet's usual mark.
        answerChoiceColumns: [
          { column: 5, label: 'Yes', mark: 'X' },
          { column: 6, label: 'No', mark: 'X' },
          { column: 7, label: 'Not Applicable', mark: 'X' },
        ],
      },
    ]);
    expect(intake.questions.map((q) => [q.row, q.controlId, q.existingAnswer, q.section])).toEqual([
      [5, 'AIS-01.1', 'Yes', 'Application & Interface Security Application Security'],
      [6, 'AIS-01.2', 'No', 'Application & Interface Security Application Security'],
      [7, 'AAC-01.1', null, 'Audit Assurance & Compliance Audit Planning'],
    ]);
    expect(intake.questions[0]?.question).toMatch(/^Do you use industry standards/);
    expect(intake.questions[0]?.allowedValues).toEqual(['Yes', 'No', 'Not Applicable']);
  });

  it('reads the X-marked answers again when the preview sends the detected mapping back', async () => {
    const bytes = await caiqWorkbook();
    const detected = await readQuestionnaire(bytes, 'CAIQ.xlsx');
    const again = await readQuestionnaire(bytes, 'CAIQ.xlsx', detected.mappings);
    expect(again.questions).toEqual(detected.questions);
    const [mapping] = detected.mappings;
    if (!mapping) throw new Error('no mapping');
    await expect(
      readQuestionnaire(bytes, 'CAIQ.xlsx', [{ ...mapping, answerChoiceColumns: [{ column: 4, label: 'Yes' }] }]),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_mapping' });
  });

  it('falls back to the control id when there is no question id column', async () => {
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('CAIQ');
      sheet.addRow([
        'Control Domain',
        'Control ID',
        'Control Specification',
        'Consensus Assessment Question',
        'Answer',
      ]);
      sheet.addRow([
        'Identity',
        'IAM-02',
        'User access policies shall be established.',
        'Do you have controls to enforce password policy?',
        'Yes',
      ]);
    });
    const intake = await readQuestionnaire(bytes, 'caiq.xlsx');
    expect(intake.questions).toEqual([
      expect.objectContaining({ controlId: 'IAM-02', section: 'Identity', existingAnswer: 'Yes' }),
    ]);
    expect(intake.mappings[0]).toMatchObject({ questionColumn: 3, idColumn: 1, answerColumn: 4 });
  });

  it('reads a sheet without a header: one question per row, ids recognised by their shape', async () => {
    const intake = await readQuestionnaire(await headerlessWorkbook(), 'questions.xlsx');
    expect(intake.mappings).toEqual([
      { sheet: 'Sheet1', headerRow: -1, questionColumn: 1, answerColumn: null, commentsColumn: null, idColumn: 0 },
    ]);
    expect(intake.questions.map((q) => [q.row, q.controlId, q.question])).toEqual([
      [1, 'IAM-01', 'Do you review user access rights at least quarterly?'],
      [2, 'IAM-02', 'Is single sign-on enforced for all employees?'],
      [3, 'IAM-03', 'Describe how leavers are deprovisioned.'],
    ]);
  });

  it('prefers "Question" over "Description" over "Control", and a Yes/No dropdown marks the answer column', async () => {
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Assessment');
      sheet.addRow(['Control', 'Description', 'Question', 'Status', 'Vendor Response']);
      sheet.addRow(['AC', 'Access control policy', 'Is access reviewed every quarter?']);
      sheet.addRow(['BC', 'Business continuity', 'Is the continuity plan tested yearly?']);
      addListValidation(sheet, 'E2:E3', '"Yes,No"');
      const unlabelled = workbook.addWorksheet('Extra');
      unlabelled.addRow(['Question', 'Guidance']);
      unlabelled.addRow(['Are laptops encrypted?', 'Full-disk encryption such as BitLocker']);
      addListValidation(unlabelled, 'C2:C9', '"Yes,No,Partial"');
    });
    const intake = await readQuestionnaire(bytes, 'a.xlsx');
    // "Status" is an answer header nearer the question, but the column with the Yes/No dropdown is where answers go.
    expect(intake.mappings[0]).toMatchObject({ questionColumn: 2, answerColumn: 4 });
    expect(intake.questions[0]).toMatchObject({
      question: 'Is access reviewed every quarter?',
      allowedValues: ['Yes', 'No'],
    });
    expect(intake.mappings[1]).toMatchObject({ questionColumn: 0, answerColumn: 2, commentsColumn: null });
    expect(intake.sheets[1]?.columns).toEqual(['Question', 'Guidance', '']);
  });

  it('finds the question column by its content when the headers do not name it', async () => {
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Form');
      sheet.addRow(['Nr', 'Topic', 'Text', 'Reply', 'Remarks']);
      sheet.addRow([1, 'Backup', 'Are backups encrypted and stored off-site?', '', '']);
      sheet.addRow([2, 'Logging', 'How long are security logs retained?', '', '']);
      sheet.addRow([3, 'Logging', 'Describe your log monitoring process.', '', '']);
    });
    const intake = await readQuestionnaire(bytes, 'form.xlsx');
    expect(intake.mappings[0]).toMatchObject({
      headerRow: 0,
      questionColumn: 2,
      answerColumn: 3,
      commentsColumn: 4,
      idColumn: 0,
    });
    expect(intake.questions.map((q) => q.section)).toEqual(['Backup', 'Logging', 'Logging']);
  });

  it('keeps terse checklist items when they are most of the sheet, and numbered headings above their items', async () => {
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Checklist');
      sheet.addRow(['Ref', 'Item', 'Yes/No']);
      sheet.addRow(['A', 'Physical Security']);
      sheet.addRow(['A.1', 'Badge access to offices']);
      sheet.addRow(['A.2', 'CCTV at every entrance']);
      sheet.addRow(['A.3', 'Visitor log maintained']);
    });
    const intake = await readQuestionnaire(bytes, 'checklist.xlsx');
    expect(intake.questions.map((q) => [q.controlId, q.question, q.section])).toEqual([
      ['A.1', 'Badge access to offices', 'A Physical Security'],
      ['A.2', 'CCTV at every entrance', 'A Physical Security'],
      ['A.3', 'Visitor log maintained', 'A Physical Security'],
    ]);
  });

  it('reads a dropdown Excel stores in its x14 extension (a list on another sheet)', async () => {
    const plain = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Questions');
      sheet.addRow(['Question', 'Answer']);
      sheet.addRow(['Do you perform background checks on employees?']);
      const lists = workbook.addWorksheet('Choices');
      lists.state = 'veryHidden';
      lists.addRow(['Compliant']);
      lists.addRow(['Non-compliant']);
      lists.addRow(['Not applicable']);
    });
    // What Excel 2010+ writes for a cross-sheet list: no <dataValidations>, an <x14:dataValidations> in extLst.
    const x14 =
      '<extLst><ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">' +
      '<x14:dataValidations count="1" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">' +
      '<x14:dataValidation type="list" allowBlank="1"><x14:formula1><xm:f>Choices!$A$1:$A$3</xm:f></x14:formula1>' +
      '<xm:sqref>B2:B1048576</xm:sqref></x14:dataValidation></x14:dataValidations></ext></extLst>';
    const bytes = patchZipPart(plain, 'xl/worksheets/sheet1.xml', (xml) =>
      xml.replace('</worksheet>', `${x14}</worksheet>`),
    );
    const intake = await readQuestionnaire(bytes, 'x14.xlsx');
    expect(intake.questions).toEqual([
      expect.objectContaining({ allowedValues: ['Compliant', 'Non-compliant', 'Not applicable'] }),
    ]);
    expect(intake.sheets.map((sheet) => [sheet.name, sheet.hidden])).toEqual([
      ['Questions', false],
      ['Choices', true],
    ]);
  });

  it('reads hyperlinks, numbers, dates, booleans and errors as the text a person sees', async () => {
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Q');
      sheet.addRow(['Question', 'Answer', 'Comments']);
      sheet.addRow([
        { text: 'Do you publish a security page?', hyperlink: 'https://example.com/security' },
        true,
        new Date(Date.UTC(2024, 0, 31)),
      ]);
      sheet.addRow(['Number of security staff employed?', 12, { error: '#N/A' }]);
    });
    const { sheets } = await readQuestionnaireSheets(bytes, 'q.xlsx');
    expect(sheets[0]?.rows).toEqual([
      ['Question', 'Answer', 'Comments'],
      ['Do you publish a security page?', 'TRUE', '2024-01-31'],
      ['Number of security staff employed?', '12', '#N/A'],
    ]);
    expect(sheets[0]?.headerRow).toBe(0);
    const intake = await readQuestionnaire(bytes, 'q.xlsx');
    expect(intake.questions.map((q) => q.existingAnswer)).toEqual(['TRUE', '12']);
  });

  it('keeps merged values in the master cell only and treats a merged banner as a section', async () => {
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Q');
      sheet.addRow(['ID', 'Question', 'Answer', 'Notes']);
      sheet.addRow(['Section 3 — Network security and communications management across all sites']);
      sheet.mergeCells('A2:D2');
      sheet.addRow(['3.1', 'Are firewalls reviewed at least annually?']);
      sheet.addRow(['3.2', 'Is network traffic between sites encrypted in transit?']);
      sheet.mergeCells('B3:B3');
    });
    const { sheets } = await readQuestionnaireSheets(bytes, 'q.xlsx');
    expect(sheets[0]?.rows[1]).toEqual(['Section 3 — Network security and communications management across all sites']);
    const intake = await readQuestionnaire(bytes, 'q.xlsx');
    expect(intake.questions.map((q) => q.section)).toEqual([
      'Section 3 — Network security and communications management across all sites',
      'Section 3 — Network security and communications management across all sites',
    ]);
  });

  it('looks for questions on hidden sheets only when the visible ones have none', async () => {
    const bytes = await xlsxOf((workbook) => {
      const cover = workbook.addWorksheet('Cover');
      cover.addRow(['Vendor Risk Assessment 2024']);
      const hidden = workbook.addWorksheet('Data');
      hidden.state = 'hidden';
      hidden.addRow(['Question', 'Response']);
      hidden.addRow(['Do you have cyber insurance coverage?']);
    });
    const intake = await readQuestionnaire(bytes, 'hidden.xlsx');
    expect(intake.questions).toEqual([expect.objectContaining({ sheet: 'Data', row: 2 })]);
  });

  it('uses a mapping from the preview instead of detection, for the sheets it lists', async () => {
    const bytes = await vendorQuestionnaire();
    const intake = await readQuestionnaire(bytes, 'v.xlsx', [
      { sheet: 'Privacy', headerRow: 0, questionColumn: 1, answerColumn: 3, commentsColumn: null, idColumn: null },
    ]);
    expect(intake.mappings).toEqual([
      { sheet: 'Privacy', headerRow: 0, questionColumn: 1, answerColumn: 3, commentsColumn: null, idColumn: null },
    ]);
    expect(intake.questions.map((q) => [q.sheet, q.row, q.controlId, q.allowedValues])).toEqual([
      ['Privacy', 2, null, null],
      ['Privacy', 3, null, null],
    ]);
  });

  it('rejects a mapping that does not fit the file with a 400 naming the problem', async () => {
    const bytes = await vendorQuestionnaire();
    const base = { headerRow: 0, questionColumn: 1, answerColumn: 2, commentsColumn: null, idColumn: null };
    await expect(readQuestionnaire(bytes, 'v.xlsx', [{ ...base, sheet: 'Nope' }])).rejects.toMatchObject({
      status: 400,
      code: 'invalid_mapping',
      message: 'The column choice for "Nope" is not valid: the file has no sheet with that name.',
    });
    await expect(
      readQuestionnaire(bytes, 'v.xlsx', [{ ...base, sheet: 'Privacy', questionColumn: 40 }]),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/question column is outside the sheet/),
    });
    await expect(
      readQuestionnaire(bytes, 'v.xlsx', [{ ...base, sheet: 'Privacy', answerColumn: 1 }]),
    ).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      readQuestionnaire(bytes, 'v.xlsx', [{ ...base, sheet: 'Privacy', headerRow: 1.5 }]),
    ).rejects.toMatchObject({
      status: 400,
    });
  });
});
