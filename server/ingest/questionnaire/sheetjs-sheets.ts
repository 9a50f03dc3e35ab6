import * as XLSX from '@e965/xlsx';
import { formulaKey } from './formula-cells';
import { cleanCellText } from './text-patterns';
import type { CellRange, RawSheet } from './types';

/**
 * Rows read per sheet. Far beyond any questionnaire (the question limit is 5,000) yet it bounds the memory a sheet
 * with a stray cell near row 1,048,576 or a million filler rows can take.
 */
export const MAX_SHEET_ROWS = 100_000;

/**
 * Parses a workbook with SheetJS, keeping only what a questionnaire needs: cell values (formulas as their cached
 * result, dates as dates), which cells are formulas, merges and sheet visibility. Throws whatever SheetJS throws;
 * callers turn that into a sentence for the user.
 */
export function parseWorkbook(data: Uint8Array | string): XLSX.WorkBook {
  return XLSX.read(data, {
    type: typeof data === 'string' ? 'string' : 'array',
    dense: true,
    cellDates: true,
    // Only to know which cells are computed; the text read is still the cached result.
    cellFormula: true,
    cellHTML: false,
    cellStyles: false,
    cellNF: false,
    bookVBA: false,
    sheetRows: MAX_SHEET_ROWS,
  });
}

/** Every sheet of a parsed workbook, hidden ones included, as rows of display text. Notes say what was cut. */
export function sheetsOf(workbook: XLSX.WorkBook): { sheets: RawSheet[]; notes: string[] } {
  const notes: string[] = [];
  const props = workbook.Workbook?.Sheets ?? [];
  const sheets = workbook.SheetNames.map((name, index): RawSheet => {
    const sheet = workbook.Sheets[name];
    const hidden = (props[index]?.Hidden ?? 0) !== 0;
    if (!sheet) return { name, hidden, rows: [], merges: [], validations: [], formulas: new Set() };
    if (isTruncated(sheet)) {
      notes.push(`Only the first ${MAX_SHEET_ROWS.toLocaleString('en-US')} rows of sheet "${name}" were read.`);
    }
    const merges = (sheet['!merges'] ?? []).map((range): CellRange => ({
      top: range.s.r,
      left: range.s.c,
      bottom: range.e.r,
      right: range.e.c,
    }));
    const formulas = new Set<number>();
    return { name, hidden, rows: rowsOf(sheet, merges, formulas), merges, validations: [], formulas };
  });
  return { sheets, notes };
}

function isTruncated(sheet: XLSX.WorkSheet): boolean {
  const full: unknown = sheet['!fullref'];
  if (typeof full !== 'string' || typeof sheet['!ref'] !== 'string') return false;
  return XLSX.utils.decode_range(full).e.r >= MAX_SHEET_ROWS;
}

function rowsOf(sheet: XLSX.WorkSheet, merges: readonly CellRange[], formulas: Set<number>): string[][] {
  const data: unknown = sheet['!data'];
  if (!Array.isArray(data)) return [];
  const rows: string[][] = [];
  // The dense store is sparse: empty rows and cells are holes, which forEach skips.
  (data as (XLSX.CellObject[] | undefined)[]).forEach((cells, rowIndex) => {
    if (!cells) return;
    const row: string[] = [];
    cells.forEach((cell, columnIndex) => {
      // `F` marks every cell of an array formula's range, `f` a cell with its own (or a shared) formula.
      if (cell && (cell.f !== undefined || cell.F !== undefined)) formulas.add(formulaKey(rowIndex, columnIndex));
      const text = cell ? cleanCellText(displayText(cell)) : '';
      if (text !== '') row[columnIndex] = text;
    });
    if (row.length > 0) rows[rowIndex] = row;
  });
  // Some writers copy the master's value into every cell of a merge; Excel shows it once, and so do we.
  for (const merge of merges) {
    for (let r = merge.top; r <= merge.bottom && r < rows.length; r += 1) {
      const row = rows[r];
      if (!row) continue;
      for (let c = merge.left; c <= merge.right && c < row.length; c += 1) {
        if (r !== merge.top || c !== merge.left) delete row[c];
      }
    }
  }
  return densify(rows);
}

/** Fills the holes with empty strings and drops trailing empty cells and rows. */
export function densify(rows: (string[] | undefined)[]): string[][] {
  const out: string[][] = [];
  let lastNonEmpty = -1;
  for (let r = 0; r < rows.length; r += 1) {
    const source = rows[r];
    const row: string[] = [];
    if (source) {
      let width = 0;
      source.forEach((text, column) => {
        if (text !== '') width = column + 1;
      });
      for (let c = 0; c < width; c += 1) row.push(source[c] ?? '');
    }
    if (row.length > 0) lastNonEmpty = r;
    out.push(row);
  }
  out.length = lastNonEmpty + 1;
  return out;
}

/** A cell as Excel shows it: dates in ISO form, numbers as formatted, booleans and errors as their words. */
function displayText(cell: XLSX.CellObject): string {
  const value = cell.v;
  switch (cell.t) {
    case 's':
      return typeof value === 'string' ? value : (cell.w ?? '');
    case 'd':
      return value instanceof Date ? isoDate(value) : (cell.w ?? '');
    case 'b':
      return value === true ? 'TRUE' : value === false ? 'FALSE' : (cell.w ?? '');
    case 'n':
      return cell.w ?? (typeof value === 'number' ? String(value) : '');
    case 'e':
      return cell.w ?? '#ERROR!';
    default:
      return '';
  }
}

function isoDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  // A date without a time of day is the common case; "2024-03-31" is what a person expects to read.
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
}
