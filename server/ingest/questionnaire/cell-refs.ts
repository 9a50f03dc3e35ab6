import type { CellRange } from './types';

// A1-style references as they appear in validations and defined names: "B2", "$A$1:$A$3", "Lists!$A:$A",
// "'My Lists'!A1:A3". Whole columns and whole rows are open-ended, so the bounds are clipped by the caller.

export const MAX_ROWS = 1_048_576;
export const MAX_COLUMNS = 16_384;

/** "A" → 0, "AB" → 27. */
export function columnIndex(letters: string): number {
  let index = 0;
  for (const char of letters.toUpperCase()) index = index * 26 + (char.charCodeAt(0) - 64);
  return index - 1;
}

/** 0 → "A", 27 → "AB". */
export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

const CELL = /^\$?([A-Za-z]{1,3})?\$?(\d{1,7})?$/;

/** One side of a range: either part may be missing ("A" in "A:A", "3" in "3:3"). */
function parseCorner(text: string): { row: number | null; column: number | null } | null {
  const match = CELL.exec(text);
  if (!match || (!match[1] && !match[2])) return null;
  const column = match[1] ? columnIndex(match[1]) : null;
  const row = match[2] ? Number(match[2]) - 1 : null;
  if (column !== null && column >= MAX_COLUMNS) return null;
  if (row !== null && (row < 0 || row >= MAX_ROWS)) return null;
  return { row, column };
}

/** "B2:D9", "B2", "A:A", "3:5" → 0-based inclusive bounds; null when it is not a plain reference. */
export function parseRange(text: string): CellRange | null {
  const [first, second, ...rest] = text.trim().split(':');
  if (first === undefined || rest.length > 0) return null;
  const start = parseCorner(first);
  const end = second === undefined ? start : parseCorner(second);
  if (!start || !end) return null;
  const top = Math.min(start.row ?? 0, end.row ?? 0);
  const bottom = start.row === null || end.row === null ? MAX_ROWS - 1 : Math.max(start.row, end.row);
  const left = Math.min(start.column ?? 0, end.column ?? 0);
  const right = start.column === null || end.column === null ? MAX_COLUMNS - 1 : Math.max(start.column, end.column);
  return { top, left, bottom, right };
}

/** "Lists!$A$1:$A$3" → { sheet: 'Lists', range }; "'It''s'!A1" unquotes; a reference without a sheet has sheet null. */
export function parseSheetReference(text: string): { sheet: string | null; range: CellRange } | null {
  const trimmed = text.trim().replace(/^=/, '');
  const bang = trimmed.lastIndexOf('!');
  const sheetPart = bang === -1 ? null : trimmed.slice(0, bang);
  const range = parseRange(bang === -1 ? trimmed : trimmed.slice(bang + 1));
  if (!range) return null;
  if (sheetPart === null) return { sheet: null, range };
  const quoted = /^'(.*)'$/s.exec(sheetPart);
  const sheet = quoted?.[1] !== undefined ? quoted[1].replace(/''/g, "'") : sheetPart;
  // "[1]Lists!A1" points into another workbook: nothing we can read.
  if (sheet === '' || sheet.startsWith('[')) return null;
  return { sheet, range };
}

export function contains(range: CellRange, row: number, column: number): boolean {
  return row >= range.top && row <= range.bottom && column >= range.left && column <= range.right;
}
