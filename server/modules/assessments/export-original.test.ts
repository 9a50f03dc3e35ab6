import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { addListValidation, xlsxOf } from '../../../test/fixtures/questionnaire/intake';
import { readQuestionnaire } from '../../ingest/questionnaire/intake';
import { exportOriginal, type OriginalAnswer } from './export-original';

/** Three questions: one blank, one the customer answered (with a note), one holding the template's hint. */
function customerFile(): Promise<Uint8Array> {
  return xlsxOf((workbook) => {
    const sheet = workbook.addWorksheet('Questions');
    sheet.addRow(['Ref', 'Question', 'Answer', 'Comments']);
    sheet.addRow(['Q-1', 'Do you encrypt data at rest?']);
    sheet.addRow(['Q-2', 'Do you run a bug bounty?', 'No', 'Planned for next year']);
    sheet.addRow(['Q-3', 'Date of completion', 'mm/dd/yyyy']);
    addListValidation(sheet, 'C2:C3', '"Yes,No"');
  });
}

async function exported(replace: (row: number) => boolean): Promise<ExcelJS.Worksheet> {
  const bytes = await customerFile();
  const intake = await readQuestionnaire(bytes, 'customer.xlsx');
  const answers: OriginalAnswer[] = intake.questions.map((q) => ({
    sheet: q.sheet,
    row: q.row,
    answer: q.row === 4 ? '2026-11-26' : 'Yes, and it is reviewed yearly.',
    shortAnswer: q.row === 4 ? null : 'Yes',
    allowedValues: q.allowedValues,
    existingAnswer: q.existingAnswer,
    existingComment: q.existingComment,
    replacesExisting: replace(q.row),
  }));
  const out = await exportOriginal(bytes, intake.format, intake.mappings, answers, { withSources: false });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(out) as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet('Questions');
  if (!sheet) throw new Error('no sheet');
  return sheet;
}

describe("the customer's own file, filled", () => {
  it('keeps an answer and note the customer already gave, and replaces a template hint', async () => {
    const sheet = await exported(() => false);
    expect(sheet.getCell('C2').value).toBe('Yes');
    expect(sheet.getCell('D2').value).toBe('Yes, and it is reviewed yearly.');
    expect(sheet.getCell('C3').value).toBe('No');
    expect(sheet.getCell('D3').value).toBe('Planned for next year');
    expect(sheet.getCell('C4').value).toBe('2026-11-26');
  });

  it("replaces the customer's answer and note only where the answer says it may", async () => {
    const sheet = await exported((row) => row === 3);
    expect(sheet.getCell('C3').value).toBe('Yes');
    expect(sheet.getCell('D3').value).toBe('Yes, and it is reviewed yearly.');
  });

  it('keeps the notes a customer wrote on an X-marked sheet, where the notes column takes the answer', async () => {
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('CAIQ');
      sheet.addRow(['Question ID', 'Consensus Assessment Questions', 'Consensus Assessment Answers', '', '', 'Notes']);
      sheet.addRow(['', '', 'Yes', 'No', 'Not Applicable', '']);
      sheet.mergeCells('C1:E1');
      sheet.addRow([
        'AIS-01.1',
        'Do you use industry standards to build in security?',
        '',
        '',
        '',
        'Customer note kept',
      ]);
      sheet.addRow(['AIS-01.2', 'Do you use an automated source code analysis tool?', '', '', '', '']);
    });
    const intake = await readQuestionnaire(bytes, 'caiq.xlsx');
    expect(intake.mappings[0]?.answerChoiceColumns).toHaveLength(3);
    const answers: OriginalAnswer[] = intake.questions.map((q) => ({
      sheet: q.sheet,
      row: q.row,
      answer: 'Yes, on every pull request.',
      shortAnswer: 'Yes',
      allowedValues: q.allowedValues,
      existingAnswer: q.existingAnswer,
      existingComment: q.existingComment,
    }));
    const out = await exportOriginal(bytes, intake.format, intake.mappings, answers, { withSources: false });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(out) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet('CAIQ');
    expect(sheet?.getCell('F3').value).toBe('Customer note kept');
    expect(sheet?.getCell('F4').value).toBe('Yes, on every pull request.');
  });
});
