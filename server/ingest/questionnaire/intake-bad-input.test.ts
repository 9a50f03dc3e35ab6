import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readQuestionnaire } from './intake';
import {
  deflatedZeros,
  encryptedOfficeFile,
  rawZip,
  vendorQuestionnaire,
  xlsxOf,
  xlsxWithSheetJs,
} from '../../../test/fixtures/questionnaire/intake';
import { QuestionnaireError } from './types';
import { rejectionOf } from '../../../test/helpers/rejection';

const utf8 = (text: string) => new TextEncoder().encode(text);
const NO_QUESTIONS = 'No questions were found in this file. Check that it has a column of questions.';

const refusal = (bytes: Uint8Array, name: string) =>
  rejectionOf(readQuestionnaire(bytes, name), QuestionnaireError, name);

describe('readQuestionnaire refuses bad files with a sentence', () => {
  it('an empty file', async () => {
    for (const name of ['q.xlsx', 'q.csv', 'q.docx']) {
      expect(await refusal(new Uint8Array(0), name)).toMatchObject({
        status: 400,
        code: 'empty',
        message: 'The file is empty.',
      });
    }
  });

  it('a workbook with no recognisable questions', async () => {
    const bytes = await xlsxOf((workbook) => {
      const numbers = workbook.addWorksheet('Numbers');
      numbers.addRow(['Year', 'Revenue']);
      numbers.addRow([2023, 1_000_000]);
      const glossary = workbook.addWorksheet('Glossary');
      glossary.addRow(['Term', 'Description']);
      glossary.addRow(['Encryption', 'The process of encoding information so only authorised parties can read it.']);
      const prose = workbook.addWorksheet('About');
      prose.addRow(['We are a company that sells widgets to other companies all over the world.']);
      prose.addRow(['Our headquarters are in Lisbon and we employ four hundred people in total.']);
    });
    expect(await refusal(bytes, 'nothing.xlsx')).toMatchObject({
      status: 400,
      code: 'no_questions',
      message: NO_QUESTIONS,
    });
    expect(await refusal(utf8('a,b\n1,2\n'), 'nothing.csv')).toMatchObject({ message: NO_QUESTIONS });
  });

  it('a 20,000-row sheet, quickly and with the count', async () => {
    // SheetJS writes 20,000 rows several times faster than exceljs; the test is about reading them.
    const rows = [['ID', 'Question', 'Answer']];
    for (let index = 1; index <= 20_000; index += 1)
      rows.push([`Q-${index}`, `Do you meet requirement number ${index}?`, '']);
    const bytes = xlsxWithSheetJs(rows);
    expect(await refusal(bytes, 'huge.xlsx')).toMatchObject({
      status: 413,
      code: 'too_many_questions',
      message: 'This questionnaire has 20,000 questions; the limit is 5,000. Split it into smaller files.',
    });
  });

  it('a damaged workbook', async () => {
    const good = await vendorQuestionnaire();
    expect(await refusal(good.subarray(0, Math.floor(good.length / 2)), 'cut.xlsx')).toMatchObject({
      status: 422,
      code: 'corrupt',
      message: 'The file is damaged or is not a valid Excel workbook (.xlsx).',
    });
    const garbage = zipSync({
      '[Content_Types].xml': strToU8('<Types/>'),
      'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="A" r:id="rId9"'),
    });
    const error = await refusal(garbage, 'garbage.xlsx');
    expect([400, 422]).toContain(error.status);
    expect(await refusal(utf8('\u0000\u0001binary junk'), 'junk.xlsx')).toMatchObject({ code: 'corrupt' });
  });

  it('a zip bomb named like a workbook, from its directory alone', async () => {
    const zeros = deflatedZeros(300);
    const contentTypes = utf8('<Types/>');
    const bomb = rawZip([
      {
        name: '[Content_Types].xml',
        data: contentTypes,
        method: 0,
        crc: zlib.crc32(contentTypes),
        declaredSize: contentTypes.length,
      },
      { name: 'xl/workbook.xml', data: zeros.data, method: 8, crc: zeros.crc, declaredSize: zeros.size },
    ]);
    const before = process.memoryUsage().arrayBuffers;
    const error = await refusal(bomb, 'bomb.xlsx');
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(20 * 1024 * 1024);
    expect(error).toMatchObject({ status: 413, code: 'too_large' });
    expect(error.message).toMatch(/expands to too much data/);
  });

  it('a password-protected workbook or document', async () => {
    const encrypted = encryptedOfficeFile();
    expect(await refusal(encrypted, 'locked.xlsx')).toMatchObject({
      status: 422,
      code: 'encrypted',
      message: 'This workbook is password-protected. Remove the password and upload it again.',
    });
    expect(await refusal(encrypted, 'locked.docx')).toMatchObject({
      message: 'This document is password-protected. Remove the password and upload it again.',
    });
  });

  it('a ".xlsx" that is really another format', async () => {
    const pdf = utf8('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
    expect(await refusal(pdf, 'questions.xlsx')).toMatchObject({
      status: 400,
      code: 'unsupported_type',
      message:
        'The file is not an Excel workbook (.xlsx): its content looks like a PDF. Upload the questionnaire as an Excel (.xlsx or .xls), CSV or Word (.docx) file.',
    });
    expect((await refusal(utf8('Question,Answer\nDo you encrypt data?,Yes\n'), 'questions.xlsx')).message).toMatch(
      /^The file is not an Excel workbook \(\.xlsx\): its content looks like plain text\./,
    );
    expect((await refusal(zipSync({ 'notes.txt': strToU8('hello') }), 'questions.xlsx')).message).toMatch(
      /its content looks like a ZIP archive/,
    );
    expect((await refusal(pdf, 'questions.pdf')).message).toMatch(
      /^This type of file cannot be read as a questionnaire/,
    );
  });

  it('10 MB in one cell: that row is skipped with a note, the rest is read', async () => {
    // Random text, so the cell compresses like text (repeating one word would rightly trip the zip guard's ratio).
    const huge = `Describe ${randomBytes(7_600_000).toString('base64')} things.`;
    expect(huge.length).toBeGreaterThan(10_000_000);
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Q');
      sheet.addRow(['Question', 'Answer']);
      sheet.addRow(['Do you have a vulnerability disclosure policy?']);
      sheet.addRow([huge]);
      sheet.addRow(['Is there a bug bounty programme?']);
    });
    const intake = await readQuestionnaire(bytes, 'big-cell.xlsx');
    expect(intake.questions.map((q) => q.row)).toEqual([2, 4]);
    expect(intake.notes).toEqual(['Row 3 of "Q" was skipped: its question is longer than 10,000 characters.']);

    const csv = await readQuestionnaire(utf8(`Question\nDo you rotate keys?\n"${huge}"\n`), 'big.csv');
    expect(csv.questions.map((q) => q.row)).toEqual([2]);
    expect(csv.notes).toHaveLength(1);
  });
});
