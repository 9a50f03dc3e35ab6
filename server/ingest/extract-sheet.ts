import Papa from 'papaparse';
import { corruptMessage, notTextMessage } from './messages';
import { assertSafeOfficeFile } from './office-guard';
import { parseWorkbook, sheetsOf } from './questionnaire/sheetjs-sheets';
import { decodeTextOrThrow } from './text-decode';
import { type ExtractedBlock, type Extraction, ExtractionError } from './types';

/**
 * Excel (.xlsx): every visible worksheet, one block per row reading "header: value; header: value" (the first
 * non-empty row is the header), section = the sheet's name. Hidden sheets are skipped: they usually hold lookup
 * lists, and a reader of the workbook never sees them. The archive passes the zip guard first, and cells are read
 * with SheetJS as the questionnaire intake reads them (at most 100,000 rows a sheet, a merged value once): exceljs
 * visits every cell a merge or a dropdown covers, so a 2 kB file merging A1:XFD1048576 kept it busy for ever.
 */
export async function extractXlsx(bytes: Uint8Array): Promise<Extraction> {
  assertSafeOfficeFile(bytes, 'xlsx');
  let sheets: ReturnType<typeof sheetsOf>['sheets'];
  try {
    sheets = sheetsOf(parseWorkbook(bytes)).sheets;
  } catch (error) {
    throw new ExtractionError('corrupt', corruptMessage('xlsx'), { cause: error });
  }
  const blocks: ExtractedBlock[] = [];
  for (const sheet of sheets) {
    if (sheet.hidden) continue;
    // One at a time: spreading 100,000 rows into push() would overflow the call stack.
    for (const block of rowsToBlocks(sheet.rows, sheet.name)) blocks.push(block);
  }
  return { blocks, pageCount: null };
}

/** CSV (RFC 4180 quoting; the delimiter is detected): one block per row, "header: value; …", no section. */
export function extractCsv(bytes: Uint8Array): Extraction {
  const text = decodeTextOrThrow(
    bytes,
    (problem) => new ExtractionError('unsupported_type', notTextMessage('csv', problem)),
  );
  // papaparse reports problems (a missing closing quote, rows of uneven length) but still returns every row it
  // could read; a slightly irregular export is better indexed than refused.
  const { data } = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  return { blocks: rowsToBlocks(data, null), pageCount: null };
}

/**
 * Turns a table into one block per row, each value labelled with its column's header so that a row read alone
 * (as a search hit) still says what its values mean. A table with a header row only yields that row.
 */
export function rowsToBlocks(rows: readonly (readonly string[])[], section: string | null): ExtractedBlock[] {
  const nonEmpty = rows.filter((row) => row.some((cell) => cell.trim() !== ''));
  const [header, ...body] = nonEmpty;
  if (!header) return [];
  const headers = header.map((cell) => cell.replace(/\s+/g, ' ').trim());
  const lines = body.length === 0 ? [headers.filter((name) => name !== '').join('; ')] : body.map(labelled);
  return lines.filter((text) => text !== '').map((text) => ({ text, page: null, section }));

  function labelled(row: readonly string[]): string {
    const fields: string[] = [];
    row.forEach((raw, index) => {
      const value = raw.trim();
      if (value === '') return;
      const name = headers[index];
      fields.push(name ? `${name}: ${value}` : value);
    });
    return fields.join('; ');
  }
}
