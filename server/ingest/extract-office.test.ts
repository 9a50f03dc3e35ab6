import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { extractDocx } from './extract-docx';
import { extractCsv, extractXlsx, rowsToBlocks } from './extract-sheet';
import { extractDocument } from './pipeline';
import { zipOf } from '../../test/fixtures/ingest/sample-files';
import { ExtractionError } from './types';

async function docxOf(children: (Paragraph | Table)[]): Promise<Uint8Array> {
  return new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children }] })));
}

async function xlsxOf(build: (workbook: ExcelJS.Workbook) => void): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  build(workbook);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

describe('extractDocx', () => {
  it('makes each heading a section holding the paragraphs under it', async () => {
    const bytes = await docxOf([
      new Paragraph({ text: 'Security policy for Acme.' }),
      new Paragraph({ text: 'Password Policy', heading: HeadingLevel.HEADING_1 }),
      new Paragraph({ text: 'Passwords have at least 12 characters.' }),
      new Paragraph({ text: 'They are never reused.' }),
      new Paragraph({ text: 'Remote Access', heading: HeadingLevel.HEADING_2 }),
      new Paragraph({ text: 'Remote access goes through the VPN & requires MFA.' }),
    ]);
    const { blocks, pageCount } = await extractDocx(bytes);
    expect(pageCount).toBeNull();
    expect(blocks.map((block) => block.section)).toEqual([null, 'Password Policy', 'Remote Access']);
    expect(blocks.every((block) => block.page === null)).toBe(true);
    expect(blocks[1]?.text).toContain('Passwords have at least 12 characters.');
    expect(blocks[1]?.text).toContain('They are never reused.');
    expect(blocks[2]?.text).toContain('Remote access goes through the VPN & requires MFA.');
  });

  it('reads the text of tables', async () => {
    const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
    const bytes = await docxOf([new Table({ rows: [new TableRow({ children: [cell('RTO'), cell('4 hours')] })] })]);
    const { blocks } = await extractDocx(bytes);
    expect(blocks[0]?.text.replace(/\s+/g, ' ').trim()).toBe('RTO 4 hours');
  });

  it('calls a ZIP that is not a Word document damaged', async () => {
    const error = await extractDocx(zipOf({ 'hello.txt': 'hi' })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect(error).toMatchObject({
      code: 'corrupt',
      message: 'The file is damaged or is not a valid Word document (.docx).',
    });
  });
});

describe('extractXlsx', () => {
  it('reads each row as "header: value" pairs, with the sheet name as section', async () => {
    const bytes = await xlsxOf((workbook) => {
      const controls = workbook.addWorksheet('Controls');
      controls.addRow(['Control', 'Answer', 'Notes']);
      controls.addRow(['MFA enforced', 'Yes', 'For all staff']);
      controls.addRow(['Encryption at rest', 'Yes', '']);
      controls.addRow([]);
      controls.addRow(['Reviewed', new Date(Date.UTC(2024, 2, 31)), { formula: '1+1', result: 2 }]);
      const hidden = workbook.addWorksheet('Lists');
      hidden.state = 'hidden';
      hidden.addRow(['Yes', 'No']);
      const vendors = workbook.addWorksheet('Vendors');
      vendors.addRow(['Vendor', 'Data']);
      vendors.addRow(['Cloud host', 'Customer data']);
    });
    const { blocks } = await extractXlsx(bytes);
    expect(blocks).toEqual([
      { text: 'Control: MFA enforced; Answer: Yes; Notes: For all staff', page: null, section: 'Controls' },
      { text: 'Control: Encryption at rest; Answer: Yes', page: null, section: 'Controls' },
      { text: 'Control: Reviewed; Answer: 2024-03-31; Notes: 2', page: null, section: 'Controls' },
      { text: 'Vendor: Cloud host; Data: Customer data', page: null, section: 'Vendors' },
    ]);
  });

  it('is chunked per sheet through the pipeline', async () => {
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Answers');
      sheet.addRow(['Question', 'Answer']);
      sheet.addRow(['Do you have a SOC 2 report?', 'Yes, Type II, renewed every year.']);
    });
    const result = await extractDocument(bytes, 'answers.xlsx');
    expect(result).toMatchObject({ kind: 'xlsx', pageCount: null });
    expect(result.chunks).toEqual([
      {
        ordinal: 0,
        page: null,
        section: 'Answers',
        text: 'Question: Do you have a SOC 2 report?; Answer: Yes, Type II, renewed every year.',
      },
    ]);
  });

  it('calls a broken workbook damaged', async () => {
    const bytes = await xlsxOf((workbook) => workbook.addWorksheet('A').addRow(['x']));
    const error = await extractXlsx(bytes.slice(0, bytes.length / 2)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'corrupt',
      message: 'The file is damaged or is not a valid Excel workbook (.xlsx).',
    });
  });
});

describe('extractCsv', () => {
  it('reads rows as "header: value" pairs, honouring quotes', () => {
    const csv = 'Question,Answer\n"Is data encrypted, at rest?","Yes, AES-256"\n\nDo you pentest?,Yearly\n';
    const { blocks } = extractCsv(new TextEncoder().encode(csv));
    expect(blocks).toEqual([
      { text: 'Question: Is data encrypted, at rest?; Answer: Yes, AES-256', page: null, section: null },
      { text: 'Question: Do you pentest?; Answer: Yearly', page: null, section: null },
    ]);
  });

  it('detects a semicolon delimiter', () => {
    const { blocks } = extractCsv(new TextEncoder().encode('Control;Status\nBackups;Tested\n'));
    expect(blocks.map((block) => block.text)).toEqual(['Control: Backups; Status: Tested']);
  });
});

describe('rowsToBlocks', () => {
  it('keeps a value without a header, and a header row alone', () => {
    expect(
      rowsToBlocks(
        [
          ['Name', ''],
          ['Acme', 'extra'],
        ],
        null,
      ).map((block) => block.text),
    ).toEqual(['Name: Acme; extra']);
    expect(rowsToBlocks([['Only', 'Headers']], 'S').map((block) => block.text)).toEqual(['Only; Headers']);
    expect(rowsToBlocks([], null)).toEqual([]);
  });
});
