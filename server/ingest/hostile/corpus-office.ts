// Hostile Office files for the corpus: zip bombs, entity-expansion and external-entity XML, absurd sheet shapes and
// damaged containers, each built in memory in milliseconds. Test-only: never import from production code.
import * as XLSX from '@e965/xlsx';
import { type PlainEntry, type RawEntry, repeatTo, repeatedDeflate, zipArchive } from './corpus-zip';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const WORD = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** The questions a well-formed corpus workbook or document holds, so a reader that copes has something to find. */
export const SAMPLE_QUESTIONS = [
  'Do you encrypt customer data at rest?',
  'Is multi-factor authentication required for remote access?',
  'Describe your incident response process.',
] as const;

// ---------------------------------------------------------------------------------------------------------------
// Minimal packages

/** An inline-string cell (no shared strings needed); `ref` is optional, as in files some writers produce. */
export function inlineCell(text: string, ref?: string): string {
  return `<c${ref ? ` r="${ref}"` : ''} t="inlineStr"><is><t>${text}</t></is></c>`;
}

/** Rows of inline cells: a "Question | Answer" header, then one question per row. */
export function questionRows(questions: readonly string[] = SAMPLE_QUESTIONS): string {
  const rows = [['Question', 'Answer'], ...questions.map((question) => [question, ''])];
  return rows
    .map((cells, row) => {
      const filled = cells.map((text, column) => (text ? inlineCell(text, `${'AB'[column]}${row + 1}`) : ''));
      return `<row r="${row + 1}">${filled.join('')}</row>`;
    })
    .join('');
}

/** A worksheet part around the given sheetData content, with anything that follows sheetData (merges…). */
export function sheetXml(rows: string, after = '', prolog = XML_HEAD): string {
  return `${prolog}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetData>${rows}</sheetData>${after}</worksheet>`;
}

/**
 * The parts of a one-sheet workbook with the given sheet part (a string, or an entry prepared by hand for bombs)
 * and, optionally, a shared-strings part. [Content_Types].xml comes first, as Excel writes it: type sniffers read it.
 */
export function xlsxEntries(sheet: string | RawEntry, sharedStrings?: string): (PlainEntry | RawEntry)[] {
  const sheetPath = 'xl/worksheets/sheet1.xml';
  const types =
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    `<Override PartName="/${sheetPath}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
    (sharedStrings === undefined
      ? ''
      : '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>') +
    '</Types>';
  const rootRels =
    `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL}">` +
    `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
  const workbook =
    `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}">` +
    '<sheets><sheet name="Questions" sheetId="1" r:id="rId1"/></sheets></workbook>';
  const workbookRels =
    `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL}">` +
    `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
    (sharedStrings === undefined
      ? ''
      : `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`) +
    '</Relationships>';
  return [
    { name: '[Content_Types].xml', content: types },
    { name: '_rels/.rels', content: rootRels },
    { name: 'xl/workbook.xml', content: workbook },
    { name: 'xl/_rels/workbook.xml.rels', content: workbookRels },
    typeof sheet === 'string' ? { name: sheetPath, content: sheet } : { ...sheet, name: sheetPath },
    ...(sharedStrings === undefined ? [] : [{ name: 'xl/sharedStrings.xml', content: sharedStrings }]),
  ];
}

/** A one-sheet workbook. */
export function xlsxOf(sheet: string | RawEntry, sharedStrings?: string): Uint8Array {
  return zipArchive(xlsxEntries(sheet, sharedStrings));
}

/** A Word body paragraph. */
export function wordParagraph(text: string): string {
  return `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
}

/** A document.xml around the given body content. */
export function documentXml(body: string, prolog = XML_HEAD): string {
  return `${prolog}<w:document xmlns:w="${WORD}"><w:body>${body}</w:body></w:document>`;
}

/** A one-column Word table of the sample questions under a "Question" header, as a questionnaire in Word is. */
export function questionTable(questions: readonly string[] = SAMPLE_QUESTIONS): string {
  const row = (text: string) => `<w:tr><w:tc>${wordParagraph(text)}</w:tc><w:tc>${wordParagraph('')}</w:tc></w:tr>`;
  return `<w:tbl>${row('Question')}${questions.map(row).join('')}</w:tbl>`;
}

/** The parts of a Word document with the given document.xml (a string, or an entry prepared by hand for bombs). */
export function docxEntries(document: string | RawEntry): (PlainEntry | RawEntry)[] {
  const types =
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
    '</Types>';
  const rootRels =
    `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL}">` +
    `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`;
  const documentPath = 'word/document.xml';
  return [
    { name: '[Content_Types].xml', content: types },
    { name: '_rels/.rels', content: rootRels },
    typeof document === 'string' ? { name: documentPath, content: document } : { ...document, name: documentPath },
  ];
}

/** A Word document. */
export function docxOf(document: string | RawEntry): Uint8Array {
  return zipArchive(docxEntries(document));
}

/** A well-formed workbook with the sample questions: the seed of the mutation properties. */
export function validXlsx(): Uint8Array {
  return xlsxOf(sheetXml(questionRows()));
}

/** A well-formed Word document with a heading paragraph and the sample questions in a table. */
export function validDocx(): Uint8Array {
  return docxOf(documentXml(wordParagraph('Vendor security questionnaire') + questionTable()));
}

// ---------------------------------------------------------------------------------------------------------------
// Zip bombs

/** 1 GiB unless told otherwise: more than any reader may inflate, and within the 32-bit size fields. */
const BOMB_BYTES = 1024 * 1024 * 1024;
const UNIT_BYTES = 1024 * 1024;

/**
 * A workbook whose sheet part inflates to `bytes` (default 1 GiB) of rows from ~3 MB. With `liar`, the directory
 * declares the part as 1 kB, so only inflating it tells the truth.
 */
export function xlsxZipBomb(options: { bytes?: number; liar?: boolean } = {}): Uint8Array {
  const row = `<row>${inlineCell('lol')}</row>`;
  const head = `${XML_HEAD}<worksheet xmlns="${MAIN}"><sheetData>`;
  const bomb = repeatedDeflate(head, repeatTo(row, UNIT_BYTES), unitsFor(options.bytes), '</sheetData></worksheet>');
  const sheet: RawEntry = {
    name: 'sheet',
    method: 8,
    data: bomb.data,
    crc: bomb.crc,
    declaredSize: options.liar ? 1024 : bomb.size,
  };
  return xlsxOf(sheet);
}

/** A Word document whose document.xml inflates to `bytes` (default 1 GiB) of paragraphs; `liar` as for xlsx. */
export function docxZipBomb(options: { bytes?: number; liar?: boolean } = {}): Uint8Array {
  const head = `${XML_HEAD}<w:document xmlns:w="${WORD}"><w:body>`;
  const unit = repeatTo(wordParagraph('lol'), UNIT_BYTES);
  const bomb = repeatedDeflate(head, unit, unitsFor(options.bytes), '</w:body></w:document>');
  return docxOf({
    name: 'document',
    method: 8,
    data: bomb.data,
    crc: bomb.crc,
    declaredSize: options.liar ? 1024 : bomb.size,
  });
}

function unitsFor(bytes = BOMB_BYTES): number {
  return Math.max(1, Math.round(bytes / UNIT_BYTES));
}

/** A valid workbook or document padded with `count` (default 50,000) empty parts: a directory-walking bomb. */
export function manyEntries(kind: 'xlsx' | 'docx', count = 50_000): Uint8Array {
  const base = kind === 'xlsx' ? xlsxEntries(sheetXml(questionRows())) : docxEntries(validDocumentXml());
  const padding: PlainEntry[] = Array.from({ length: count }, (_, index) => ({
    name: `customXml/item${index}.xml`,
    content: '',
    store: true,
  }));
  return zipArchive([...base, ...padding]);
}

function validDocumentXml(): string {
  return documentXml(wordParagraph('Vendor security questionnaire') + questionTable());
}

// ---------------------------------------------------------------------------------------------------------------
// Entity expansion and external entities

/** A DOCTYPE whose `&lol9;` expands to 10⁹ "lol"s (3 GB) in a parser that expands entities. */
export const BILLION_LAUGHS_DOCTYPE = (() => {
  const levels = ['<!ENTITY lol0 "lol">'];
  for (let level = 1; level <= 9; level += 1) {
    levels.push(`<!ENTITY lol${level} "${`&lol${level - 1};`.repeat(10)}">`);
  }
  return `<!DOCTYPE lolz [${levels.join('')}]>`;
})();

/** A DOCTYPE declaring `&xxe;` as the content of the server's /etc/passwd. */
export const EXTERNAL_ENTITY_DOCTYPE = '<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>';

/** What /etc/passwd holds on every Unix machine: if this reaches extracted text, an external entity was read. */
export const PASSWD_MARKER = 'root:x:0:0';

/** A workbook whose `where` part (sheet or shared strings) expands `&lol9;` among ordinary questions. */
export function billionLaughsXlsx(where: 'sheet' | 'sharedStrings'): Uint8Array {
  const prolog = `${XML_HEAD}${BILLION_LAUGHS_DOCTYPE}`;
  if (where === 'sheet') return xlsxOf(sheetXml(questionRows() + `<row>${inlineCell('&lol9;')}</row>`, '', prolog));
  const strings = `${prolog}<sst xmlns="${MAIN}" count="2" uniqueCount="2"><si><t>Question</t></si><si><t>&lol9;</t></si></sst>`;
  return xlsxOf(
    sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>'),
    strings,
  );
}

/** A Word document whose body expands `&lol9;`. */
export function billionLaughsDocx(): Uint8Array {
  return docxOf(documentXml(questionTable() + wordParagraph('&lol9;'), `${XML_HEAD}${BILLION_LAUGHS_DOCTYPE}`));
}

/** A workbook whose first question is `&xxe;`, an external entity naming /etc/passwd. */
export function externalEntityXlsx(): Uint8Array {
  const rows = questionRows(['&xxe; Do you read local files?', ...SAMPLE_QUESTIONS]);
  return xlsxOf(sheetXml(rows, '', XML_HEAD + EXTERNAL_ENTITY_DOCTYPE));
}

/** A Word document with `&xxe;` in a table cell and a paragraph. */
export function externalEntityDocx(): Uint8Array {
  const body = questionTable(['&xxe; Do you read local files?', ...SAMPLE_QUESTIONS]) + wordParagraph('&xxe;');
  return docxOf(documentXml(body, XML_HEAD + EXTERNAL_ENTITY_DOCTYPE));
}

// ---------------------------------------------------------------------------------------------------------------
// Absurd shapes

/**
 * A workbook whose second question is `chars` characters long (default 5 MB). The text is varied, so the part
 * compresses like prose rather than tripping a compression-ratio check.
 */
export function hugeCellXlsx(chars = 5 * 1024 * 1024): Uint8Array {
  return xlsxOf(sheetXml(questionRows([SAMPLE_QUESTIONS[0], variedText(chars), SAMPLE_QUESTIONS[1]])));
}

/** One row of `columns` cells (default 100,000) after a normal header, without cell references, as some writers do. */
export function wideRowXlsx(columns = 100_000): Uint8Array {
  const cells = Array.from({ length: columns }, (_, index) => `<c><v>${index}</v></c>`).join('');
  return xlsxOf(sheetXml(`${questionRows()}<row>${cells}</row>`));
}

/** A workbook with one cell in the last row and column Excel allows, and a dimension claiming the whole grid. */
export function farCellXlsx(): Uint8Array {
  const rows = `${questionRows()}<row r="1048576">${inlineCell('far away', 'XFD1048576')}</row>`;
  return xlsxOf(sheetXml(rows).replace('<sheetData>', '<dimension ref="A1:XFD1048576"/><sheetData>'));
}

/** A 1 kB workbook merging every cell of the sheet (17 billion): a reader that visits each merged cell never ends. */
export function mergeBombXlsx(): Uint8Array {
  return xlsxOf(sheetXml(questionRows(), '<mergeCells count="1"><mergeCell ref="A2:XFD1048576"/></mergeCells>'));
}

/** A 1 kB workbook with a dropdown over every cell of the sheet (17 billion cells). */
export function validationBombXlsx(): Uint8Array {
  const validation =
    '<dataValidations count="1"><dataValidation type="list" allowBlank="1" sqref="A1:XFD1048576">' +
    '<formula1>"Yes,No"</formula1></dataValidation></dataValidations>';
  return xlsxOf(sheetXml(questionRows(), validation));
}

/** A Word document with tables nested `depth` deep (default 5,000) after a normal question table. */
export function nestedTablesDocx(depth = 5_000): Uint8Array {
  const open = '<w:tbl><w:tr><w:tc>'.repeat(depth);
  const close = '<w:p/></w:tc></w:tr></w:tbl>'.repeat(depth);
  return docxOf(documentXml(questionTable() + open + wordParagraph('The innermost cell.') + close));
}

/**
 * A workbook whose questions hold control characters the way Excel stores them ("_x0000_" is NUL) and as character
 * references: invisible to a person, and PostgreSQL refuses NUL in a text column.
 */
export function controlCharactersXlsx(): Uint8Array {
  const questions = [
    'Do you _x0000_ encrypt customer data at rest?',
    'Is multi-factor authentication _x0001_ required for remote access?',
    'Describe your incident &#x1F; response process.',
  ];
  return xlsxOf(sheetXml(questionRows(questions)));
}

/** A Word document whose document.xml is binary junk, not XML. */
export function docxNotXml(): Uint8Array {
  return docxOf('\u0000\u0001\u0002 this is <<< not &&& XML ]]> at all \uFFFD');
}

/** A workbook whose sheet part is cut off in the middle of a cell. */
export function xlsxTruncatedXml(): Uint8Array {
  return xlsxOf(sheetXml(questionRows()).slice(0, 300));
}

/**
 * An Excel 2003 XML workbook ("SpreadsheetML", which older systems export under an .xls name) with `doctype` in its
 * prolog and `reference` (an entity such as "&lol9;") in its first question.
 */
export function spreadsheetMl2003(doctype: string, reference: string): Uint8Array {
  const cell = (text: string) => `<Row><Cell><Data ss:Type="String">${text}</Data></Cell></Row>`;
  const rows = [cell('Question'), cell(`${reference} ${SAMPLE_QUESTIONS[0]}`), cell(SAMPLE_QUESTIONS[1])].join('');
  return new TextEncoder().encode(
    `<?xml version="1.0"?>${doctype}<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" ` +
      `xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet"><Worksheet ss:Name="Q"><Table>${rows}</Table>` +
      '</Worksheet></Workbook>',
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Legacy .xls (an OLE compound file)

/** A valid Excel 97–2003 workbook of the sample questions, written by SheetJS. */
export function validXls(): Uint8Array {
  const sheet = XLSX.utils.aoa_to_sheet([
    ['Question', 'Answer'],
    ...SAMPLE_QUESTIONS.map((question) => [question, '']),
  ]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Questions');
  return new Uint8Array(XLSX.write(book, { bookType: 'biff8', type: 'array' }) as ArrayBuffer);
}

/**
 * An .xls whose allocation table (FAT) is damaged: `cycle` makes every sector's chain point back to itself (a
 * reader following it never ends), `out-of-range` points the table at a sector far past the end of the file.
 */
export function corruptFatXls(damage: 'cycle' | 'out-of-range'): Uint8Array {
  const bytes = validXls();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sectorSize = 1 << view.getUint16(0x1e, true);
  if (damage === 'out-of-range') {
    view.setUint32(0x4c, 0x00ffffff, true); // DIFAT[0]: the first FAT sector
    return bytes;
  }
  const fatSector = view.getUint32(0x4c, true);
  const start = (fatSector + 1) * sectorSize;
  for (let entry = 0; entry < sectorSize / 4; entry += 1) {
    const at = start + entry * 4;
    // Keep the FAT's own marker so the table is still found; every data sector then points to itself.
    if (entry !== fatSector && at + 4 <= bytes.length) view.setUint32(at, entry, true);
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------------------------

/** Deterministic text of about `chars` characters that compresses like prose (~3:1), not like a repeated word. */
export function variedText(chars: number): string {
  let state = 0x2545f491;
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const word = (state >>> 0).toString(36);
    parts.push(word);
    length += word.length + 1;
  }
  return parts.join(' ').slice(0, chars);
}
