import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';

// Workbooks for the write-back tests, shaped like the questionnaires customers send.

export const QUESTIONNAIRE = 'Security Questionnaire';

/** A 1×1 PNG, enough for a drawing part that must survive untouched. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const BOLD_HEADER: Partial<ExcelJS.Style> = {
  font: { bold: true, color: { argb: 'FFFFFFFF' } },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF305496' } },
  alignment: { wrapText: true, vertical: 'middle' },
  border: { top: { style: 'thin' }, bottom: { style: 'medium' }, left: { style: 'thin' }, right: { style: 'thin' } },
};
const BODY: Partial<ExcelJS.Style> = {
  alignment: { wrapText: true, vertical: 'top' },
  border: { top: { style: 'thin' }, bottom: { style: 'thin' }, left: { style: 'thin' }, right: { style: 'thin' } },
};
const ANSWER_CELL: Partial<ExcelJS.Style> = {
  ...BODY,
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFF2CC' } },
  protection: { locked: false },
};

/** Question rows of the main fixture: [row, control id, question]. Rows 5 and 9 are section headings. */
export const QUESTION_ROWS: readonly [number, string, string][] = [
  [6, 'AC-01', 'Do you enforce multi-factor authentication for all administrative access?'],
  [7, 'AC-02', 'Are user access reviews performed at least quarterly?'],
  [8, 'AC-03', 'Describe your password policy.'],
  [10, 'DP-01', 'Is customer data encrypted at rest?'],
  [11, 'DP-02', 'Is data encrypted in transit using TLS 1.2 or higher?'],
  [12, 'DP-03', 'Do you store customer data outside the EU?'],
];

/**
 * A vendor questionnaire: a merged title block, a styled header on row 4, section rows, a Yes/No/N/A dropdown
 * answer column (C) with conditional formatting, a comments column (D), a score formula column (E), a note, an
 * image, widths, heights and a frozen pane; plus an "Instructions" sheet, a "Summary" sheet whose formula counts
 * the answers, and a hidden "Lists" sheet behind a defined name.
 */
export async function questionnaireWorkbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Acme Procurement';
  const ws = wb.addWorksheet(QUESTIONNAIRE, { views: [{ state: 'frozen', ySplit: 4 }] });
  ws.columns = [{ width: 10 }, { width: 60 }, { width: 18 }, { width: 45 }, { width: 8 }];
  ws.mergeCells('A1:E1');
  ws.getCell('A1').value = 'Acme Corp — Vendor Security Questionnaire';
  ws.getCell('A1').style = { font: { bold: true, size: 16 }, alignment: { horizontal: 'center' } };
  ws.mergeCells('A2:E2');
  ws.getCell('A2').value = 'Answer every question with the dropdown in column C; explain in column D.';
  ws.getCell('A2').style = { font: { italic: true } };
  ['ID', 'Question', 'Response (Yes/No/N/A)', 'Comments', 'Score'].forEach((header, i) => {
    const cell = ws.getRow(4).getCell(i + 1);
    cell.value = header;
    cell.style = BOLD_HEADER;
  });
  ws.getRow(4).height = 30;
  for (const [row, title] of [
    [5, '1. Access Control'],
    [9, '2. Data Protection'],
  ] as const) {
    ws.mergeCells(`A${row}:E${row}`);
    ws.getCell(`A${row}`).value = title;
    ws.getCell(`A${row}`).style = { font: { bold: true }, fill: BOLD_HEADER.fill };
  }
  for (const [row, id, question] of QUESTION_ROWS) {
    ws.getCell(`A${row}`).value = id;
    ws.getCell(`A${row}`).style = BODY;
    ws.getCell(`B${row}`).value = question;
    ws.getCell(`B${row}`).style = BODY;
    ws.getCell(`C${row}`).style = ANSWER_CELL;
    ws.getCell(`C${row}`).dataValidation = {
      type: 'list',
      allowBlank: true,
      formulae: row < 9 ? ['"Yes,No,N/A"'] : ['YesNoList'],
      showErrorMessage: true,
      error: 'Pick Yes, No or N/A',
    };
    ws.getCell(`D${row}`).style = ANSWER_CELL;
    ws.getCell(`E${row}`).value = { formula: `IF(C${row}="Yes",1,0)`, result: 0 };
    ws.getCell(`E${row}`).numFmt = '0';
  }
  // A previous, partial answer that write-back replaces.
  ws.getCell('C12').value = 'No';
  ws.getCell('D12').value = 'To be confirmed by Legal';
  ws.getCell('B14').value = 'Total score';
  ws.getCell('B14').font = { bold: true };
  ws.getCell('E14').value = { formula: 'SUM(E6:E12)', result: 0 };
  ws.getCell('B6').note = 'Include break-glass accounts.';
  ws.addConditionalFormatting({
    ref: 'C6:C12',
    rules: [
      {
        type: 'cellIs',
        operator: 'equal',
        formulae: ['"No"'],
        priority: 1,
        style: { fill: { type: 'pattern', pattern: 'solid', bgColor: { argb: 'FFFFC7CE' } } },
      },
    ],
  });
  ws.addImage(wb.addImage({ base64: PNG_BASE64, extension: 'png' }), 'G1:H3');

  const instructions = wb.addWorksheet('Instructions');
  instructions.getColumn(1).width = 90;
  instructions.getCell('A1').value = 'How to complete this questionnaire';
  instructions.getCell('A1').font = { bold: true, size: 14 };
  instructions.getCell('A2').value = 'Return it to security@acme.example by the deadline.';
  instructions.getCell('A3').value = { text: 'Our security portal', hyperlink: 'https://acme.example/security' };

  const summary = wb.addWorksheet('Summary');
  summary.getCell('A1').value = 'Answered Yes';
  summary.getCell('B1').value = { formula: `COUNTIF('${QUESTIONNAIRE}'!C6:C12,"Yes")`, result: 0 };

  const lists = wb.addWorksheet('Lists', { state: 'hidden' });
  ['Yes', 'No', 'N/A'].forEach((value, i) => (lists.getCell(`A${i + 1}`).value = value));
  wb.definedNames.add('Lists!$A$1:$A$3', 'YesNoList');
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

/** A questionnaire with no answer column at all: ID, Domain, Question, under a title. */
export async function noAnswerColumnWorkbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Questions');
  ws.columns = [{ width: 8 }, { width: 20 }, { width: 70 }];
  ws.mergeCells('A1:C1');
  ws.getCell('A1').value = 'Supplier due diligence';
  ['#', 'Domain', 'Question'].forEach((header, i) => {
    const cell = ws.getRow(3).getCell(i + 1);
    cell.value = header;
    cell.style = BOLD_HEADER;
  });
  for (let i = 0; i < 5; i += 1) {
    const row = ws.getRow(4 + i);
    row.getCell(1).value = i + 1;
    row.getCell(2).value = 'Security';
    row.getCell(3).value = `Question number ${i + 1}: do you have a documented control for it?`;
    row.getCell(3).style = BODY;
  }
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * A minimal package around hand-written worksheet XML, for layouts exceljs never writes (rows and cells without
 * `r`, namespace prefixes, shared formulas, a calculation chain, LibreOffice-style column ranges).
 */
export function handmadeWorkbook(
  sheetXml: string,
  options: { calcChain?: string; workbookXml?: string; sheetBytes?: Uint8Array } = {},
): Uint8Array {
  const chainOverride = options.calcChain
    ? '<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.calcChain+xml"/>'
    : '';
  const chainRel = options.calcChain
    ? `<Relationship Id="rId9" Type="${NS_REL}/calcChain" Target="calcChain.xml"/>`
    : '';
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${chainOverride}</Types>`,
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      options.workbookXml ??
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}"><sheets><sheet name="Sheet &amp; Co" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="191029"/></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${NS_REL}/worksheet" Target="/xl/worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${NS_REL}/styles" Target="styles.xml"/>${chainRel}</Relationships>`,
    ),
    'xl/styles.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="${NS_MAIN}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyAlignment="1"><alignment wrapText="1"/></xf></cellXfs></styleSheet>`,
    ),
    'xl/worksheets/sheet1.xml': options.sheetBytes ?? strToU8(sheetXml),
  };
  if (options.calcChain) files['xl/calcChain.xml'] = strToU8(options.calcChain);
  return zipSync(files);
}

/** A worksheet part around `body` (which must contain `<sheetData>`), in the default namespace. */
export function sheetXml(body: string, prefix = ''): string {
  const p = prefix === '' ? '' : `${prefix}:`;
  const xmlns = prefix === '' ? `xmlns="${NS_MAIN}"` : `xmlns:${prefix}="${NS_MAIN}"`;
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${p}worksheet ${xmlns} xmlns:r="${NS_REL}">${body}</${p}worksheet>`;
}

/** The written file as exceljs reads it. */
export async function loadWithExcelJs(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes.slice().buffer);
  return wb;
}

/** A worksheet of `wb` that the test expects to exist. */
export function sheetOf(wb: ExcelJS.Workbook, name: string): ExcelJS.Worksheet {
  const ws = wb.getWorksheet(name);
  if (!ws) throw new Error(`No sheet ${name}`);
  return ws;
}

/** The text of the `<c>` element at `ref` in a worksheet part, or null, for comparing cells byte for byte. */
export function cellXml(xml: string, ref: string): string | null {
  const match = new RegExp(`<c r="${ref}"(?:[^>]*/>|[^>]*>[\\s\\S]*?</c>)`).exec(xml);
  return match ? match[0] : null;
}

/** Every zip entry's uncompressed bytes. */
export function entries(bytes: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(bytes);
}
