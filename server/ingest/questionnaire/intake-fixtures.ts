// Questionnaires built in code for the intake tests, imitating the layouts customers send. Test-only: never import
// from production code.
import zlib from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { Document, Packer, Paragraph, Table, TableCell, TableRow, VerticalMergeType } from 'docx';
import ExcelJS from 'exceljs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

export async function xlsxOf(build: (workbook: ExcelJS.Workbook) => void): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  build(workbook);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/**
 * A dropdown over a whole range, as Excel stores it. exceljs has this at run time (`worksheet.dataValidations`) but
 * not in its type declarations, which only offer one cell at a time.
 */
export function addListValidation(sheet: ExcelJS.Worksheet, range: string, formula: string): void {
  const validations = (
    sheet as unknown as { dataValidations: { add(range: string, rule: ExcelJS.DataValidation): void } }
  ).dataValidations;
  validations.add(range, { type: 'list', allowBlank: true, formulae: [formula] });
}

/**
 * A typical vendor questionnaire: an instructions sheet, a main sheet with a title block, numbered section banners
 * (merged), statement-style items, a formula and rich text in question cells, a Yes/No dropdown over the whole
 * answer column, a repeated header row; a second sheet whose dropdown is a range on the hidden "Lists" sheet, a
 * third whose dropdown is a defined name.
 */
export function vendorQuestionnaire(): Promise<Uint8Array> {
  return xlsxOf((workbook) => {
    const instructions = workbook.addWorksheet('Instructions');
    instructions.addRow(['Acme Corp Vendor Security Assessment']);
    instructions.addRow(['Please answer every question on the "Security" and "Privacy" tabs.']);
    instructions.addRow(['This questionnaire is designed to assess the security posture of our suppliers.']);
    instructions.addRow(['Return the completed workbook to security@acme.example within 30 days.']);

    const security = workbook.addWorksheet('Security');
    security.addRow(['Acme Corp — Vendor Security Questionnaire']); // 1
    security.mergeCells('A1:D1');
    security.addRow(['Instructions: Please answer all questions in column C using the dropdown.']); // 2
    security.addRow(['Date', new Date(Date.UTC(2024, 2, 1))]); // 3
    security.addRow([]); // 4
    security.addRow(['Ref', 'Question', 'Response', 'Comments']); // 5
    security.addRow(['1. Access Control']); // 6: banner
    security.mergeCells('A6:D6');
    security.addRow(['1.1', 'Do you enforce MFA for all remote access?', '', '']); // 7
    security.addRow(['1.2', 'Describe your password policy.', '', '']); // 8
    security.addRow([
      '1.3',
      'Access to production is restricted to authorized personnel.',
      'Yes',
      'Reviewed quarterly',
    ]); // 9
    security.addRow([]); // 10: blank
    security.addRow(['', '2. Encryption']); // 11: section text in the question column only
    security.addRow([
      '2.1',
      { formula: '"Is customer data encrypted "&"at rest?"', result: 'Is customer data encrypted at rest?' },
    ]); // 12
    security.addRow([
      '2.2',
      {
        richText: [{ text: 'Provide the ' }, { text: 'key management', font: { bold: true } }, { text: ' procedure.' }],
      },
    ]); // 13
    security.addRow(['Ref', 'Question', 'Response', 'Comments']); // 14: repeated header
    security.addRow(['', 'Please answer all questions in this section using the dropdown.']); // 15: instruction
    security.addRow(['2.3', 'OK']); // 16: too short
    security.addRow(['2.4', '12345']); // 17: number only
    security.addRow(['2.5', 'List the third parties that process customer data.']); // 18
    addListValidation(security, 'C6:C1048576', '"Yes,No,N/A"');

    const privacy = workbook.addWorksheet('Privacy');
    privacy.addRow(['Control ID', 'Requirement', 'Vendor Answer', 'Evidence']);
    privacy.addRow(['PRV-01', 'Personal data is processed only on documented instructions.']);
    privacy.addRow(['PRV-02', 'Do you have a Data Protection Officer?']);
    addListValidation(privacy, 'C2:C200', 'Lists!$A$1:$A$3');

    const named = workbook.addWorksheet('Resilience');
    named.addRow(['#', 'Question', 'Yes/No']);
    named.addRow([1, 'Is there a tested business continuity plan?']);
    addListValidation(named, 'C2:C50', 'YesNoList');

    const lists = workbook.addWorksheet('Lists');
    lists.state = 'hidden';
    for (const value of ['Yes', 'No', 'N/A']) lists.addRow([value]);
    workbook.definedNames.add('Lists!$A$1:$A$3', 'YesNoList');
  });
}

/**
 * CAIQ v3.0.1 layout: title rows, "Consensus Assessment Answers" merged over Yes / No / Not Applicable sub-columns
 * marked with an X, the control domain merged down the rows of its controls.
 */
export function caiqWorkbook(): Promise<Uint8Array> {
  return xlsxOf((workbook) => {
    const sheet = workbook.addWorksheet('CAIQ v3.0.1');
    sheet.addRow(['Consensus Assessments Initiative Questionnaire v3.0.1']); // 1
    sheet.addRow([]); // 2
    sheet.addRow([
      'Control Domain',
      'Control ID',
      'Question ID',
      'Control Specification',
      'Consensus Assessment Questions',
      'Consensus Assessment Answers',
      '',
      '',
      'Notes',
    ]); // 3
    sheet.mergeCells('F3:H3');
    sheet.addRow(['', '', '', '', '', 'Yes', 'No', 'Not Applicable', '']); // 4
    const domain = 'Application & Interface Security Application Security';
    sheet.addRow([
      domain,
      'AIS-01',
      'AIS-01.1',
      'Applications and programming interfaces (APIs) shall be designed…',
      'Do you use industry standards (e.g. OWASP Software Assurance Maturity Model) to build in security for your Systems/Software Development Lifecycle (SDLC)?',
      'X',
      '',
      '',
      '',
    ]); // 5
    sheet.addRow([
      '',
      'AIS-01',
      'AIS-01.2',
      '',
      'Do you use an automated source code analysis tool to detect security defects in code prior to production?',
      '',
      'X',
      '',
      'Manual review only',
    ]); // 6
    sheet.mergeCells('A5:A6');
    sheet.addRow([
      'Audit Assurance & Compliance Audit Planning',
      'AAC-01',
      'AAC-01.1',
      'Audit plans shall be developed…',
      'Do you produce audit assertions using a structured, industry accepted format?',
      '',
      '',
      '',
      '',
    ]); // 7
  });
}

/** Questions with no header at all: an id in column A, the question in B, an empty column for the answer. */
export function headerlessWorkbook(): Promise<Uint8Array> {
  return xlsxOf((workbook) => {
    const sheet = workbook.addWorksheet('Sheet1');
    sheet.addRow(['IAM-01', 'Do you review user access rights at least quarterly?']);
    sheet.addRow(['IAM-02', 'Is single sign-on enforced for all employees?']);
    sheet.addRow(['IAM-03', 'Describe how leavers are deprovisioned.']);
  });
}

/** A Word questionnaire: a table with a header, a merged section row and a cell merged down two rows. */
export async function docxQuestionnaire(): Promise<Uint8Array> {
  const cell = (text: string, options: Partial<ConstructorParameters<typeof TableCell>[0]> = {}) =>
    new TableCell({ children: [new Paragraph(text)], ...options });
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph('Supplier Due Diligence'),
          new Table({
            rows: [
              new TableRow({ children: [cell('No.'), cell('Question'), cell('Supplier Response')] }),
              new TableRow({ children: [cell('Governance', { columnSpan: 3 })] }),
              new TableRow({
                children: [
                  cell('G.1', { verticalMerge: VerticalMergeType.RESTART }),
                  cell('Do you have an information security policy approved by management?'),
                  cell('Yes'),
                ],
              }),
              new TableRow({
                children: [
                  cell('', { verticalMerge: VerticalMergeType.CONTINUE }),
                  cell('Describe how often the policy is reviewed.'),
                  cell(''),
                ],
              }),
            ],
          }),
          new Paragraph('Thank you.'),
          new Table({
            rows: [
              new TableRow({ children: [cell('Question'), cell('Answer')] }),
              new TableRow({ children: [cell('Is data backed up daily?'), cell('')] }),
            ],
          }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/** A legacy .xls (BIFF8) written by SheetJS. */
export function xlsOf(rows: (string | number)[][], sheetName = 'Questions'): Uint8Array {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows), sheetName);
  const out: unknown = XLSX.write(workbook, { bookType: 'xls', type: 'array' });
  if (!(out instanceof ArrayBuffer)) throw new Error('SheetJS did not return an ArrayBuffer');
  return new Uint8Array(out);
}

/** An .xlsx written by SheetJS: much faster than exceljs for the large sheets of the limit tests. */
export function xlsxWithSheetJs(rows: string[][], sheetName = 'Sheet1'): Uint8Array {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows), sheetName);
  const out: unknown = XLSX.write(workbook, { bookType: 'xlsx', type: 'array', compression: true });
  if (!(out instanceof ArrayBuffer)) throw new Error('SheetJS did not return an ArrayBuffer');
  return new Uint8Array(out);
}

type CfbApi = {
  utils: { cfb_new(): unknown; cfb_add(container: unknown, name: string, content: Uint8Array): void };
  write(container: unknown, options: { type: 'array' }): ArrayLike<number>;
};

/** An OLE compound file shaped like a password-protected .xlsx: EncryptionInfo and EncryptedPackage streams. */
export function encryptedOfficeFile(): Uint8Array {
  const cfb = XLSX.CFB as CfbApi;
  const container = cfb.utils.cfb_new();
  cfb.utils.cfb_add(container, '/EncryptionInfo', new Uint8Array(64).fill(4));
  cfb.utils.cfb_add(container, '/EncryptedPackage', new Uint8Array(4096).fill(7));
  return Uint8Array.from(cfb.write(container, { type: 'array' }));
}

export type RawZipEntry = {
  name: string;
  /** The stored bytes (already deflated when method is 8). */
  data: Uint8Array;
  method: 0 | 8;
  crc: number;
  /** Uncompressed size as the archive declares it, true or not. */
  declaredSize: number;
  flags?: number;
};

/** A ZIP written byte by byte, so that tests can make it lie about sizes or claim encryption. */
export function rawZip(entries: readonly RawZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.flags ?? 0, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.flags ?? 0, 8);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(entry.data));
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/**
 * `megabytes` MB of zeros as one raw deflate stream, made in milliseconds without ever holding them: one megabyte
 * is compressed with a sync flush (non-final, byte-aligned blocks), repeated, and closed with an empty final block.
 */
export function deflatedZeros(megabytes: number): { data: Uint8Array; crc: number; size: number } {
  const chunk = Buffer.alloc(1024 * 1024);
  const block = zlib.deflateRawSync(chunk, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  let crc = 0;
  for (let index = 0; index < megabytes; index += 1) crc = zlib.crc32(chunk, crc);
  const data = Buffer.concat([...Array.from({ length: megabytes }, () => block), Buffer.from([0x03, 0x00])]);
  return { data: new Uint8Array(data), crc, size: megabytes * 1024 * 1024 };
}

/** Rewrites one part of a ZIP (an .xlsx) through a function of its text. */
export function patchZipPart(bytes: Uint8Array, part: string, patch: (xml: string) => string): Uint8Array {
  const files = unzipSync(bytes);
  const xml = files[part];
  if (!xml) throw new Error(`no part ${part}`);
  files[part] = strToU8(patch(strFromU8(xml)));
  return zipSync(files);
}
