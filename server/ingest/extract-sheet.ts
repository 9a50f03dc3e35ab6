import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { corruptMessage, notTextMessage } from './messages';
import { decodeTextOrThrow } from './text-decode';
import { type ExtractedBlock, type Extraction, ExtractionError } from './types';

/**
 * Excel (.xlsx): every visible worksheet, one block per row reading "header: value; header: value" (the first
 * non-empty row is the header), section = the sheet's name. Hidden sheets are skipped: they usually hold lookup
 * lists, and a reader of the workbook never sees them.
 */
export async function extractXlsx(bytes: Uint8Array): Promise<Extraction> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(wholeArrayBuffer(bytes));
  } catch (error) {
    throw new ExtractionError('corrupt', corruptMessage('xlsx'), { cause: error });
  }
  const blocks: ExtractedBlock[] = [];
  for (const sheet of workbook.worksheets) {
    if (sheet.state !== 'visible') continue;
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        cells[column - 1] = cellText(cell.value, cell.text);
      });
      rows.push(Array.from(cells, (cell) => cell ?? ''));
    });
    blocks.push(...rowsToBlocks(rows, sheet.name));
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

/** exceljs wants an ArrayBuffer; copy only when the bytes are a view on part of a larger one. */
function wholeArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const { buffer } = bytes;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) return buffer;
  return bytes.slice().buffer;
}

/** A cell as the user sees it: dates as dates, formulas as their result, rich text as its text. */
function cellText(value: ExcelJS.CellValue, fallback: string): string {
  if (value instanceof Date) return formatDate(value);
  if (value !== null && typeof value === 'object') {
    if ('error' in value) return String(value.error);
    if ('formula' in value || 'sharedFormula' in value) {
      const result = 'result' in value ? value.result : undefined;
      if (result === undefined || result === null) return '';
      if (result instanceof Date) return formatDate(result);
      if (typeof result === 'object') return 'error' in result ? String(result.error) : '';
      return String(result);
    }
    if ('richText' in value) return value.richText.map((run) => run.text).join('');
    if ('hyperlink' in value) {
      const text: unknown = value.text;
      return typeof text === 'string' ? text : value.hyperlink;
    }
  }
  return typeof fallback === 'string' ? fallback : '';
}

function formatDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  // Excel dates without a time of day are stored as UTC midnight.
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
}
