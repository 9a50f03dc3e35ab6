// A1-style cell references. Rows and columns are 1-based throughout, as Excel shows them.

export type CellAddress = { row: number; column: number };
export type CellRange = { top: number; left: number; bottom: number; right: number };

/** 1 → "A", 27 → "AA", 16384 → "XFD". */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function cellRef(address: CellAddress): string {
  return `${columnLetters(address.column)}${address.row}`;
}

// `$` marks absolute references in formulas; refs in sheet XML normally lack it but tolerating it costs nothing.
const CELL_REF = /^\$?([A-Za-z]{1,3})\$?([0-9]{1,7})$/;

export function parseCellRef(ref: string): CellAddress | null {
  const match = CELL_REF.exec(ref.trim());
  if (!match) return null;
  return { column: columnNumber(match[1] ?? ''), row: Number(match[2]) };
}

/** "A1:C3" or a single cell "B2"; null for anything else (whole-column refs do not occur in sheet XML ranges). */
export function parseRange(ref: string): CellRange | null {
  const [first = '', second] = ref.split(':');
  const a = parseCellRef(first);
  const b = second === undefined ? a : parseCellRef(second);
  if (!a || !b) return null;
  return {
    top: Math.min(a.row, b.row),
    left: Math.min(a.column, b.column),
    bottom: Math.max(a.row, b.row),
    right: Math.max(a.column, b.column),
  };
}

export function formatRange(range: CellRange): string {
  const start = cellRef({ row: range.top, column: range.left });
  const end = cellRef({ row: range.bottom, column: range.right });
  return start === end ? start : `${start}:${end}`;
}

export function rangeContains(range: CellRange, address: CellAddress): boolean {
  return (
    address.row >= range.top &&
    address.row <= range.bottom &&
    address.column >= range.left &&
    address.column <= range.right
  );
}
