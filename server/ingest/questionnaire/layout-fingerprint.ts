import crypto from 'node:crypto';
import type { Mapping, RawSheet } from './types';

// A remembered layout is looked up by these, so changing what they read makes every remembered layout unknown:
// the version is part of the key for that day.
const VERSION = 'v1';
// A header of 16,384 columns or a cell of a whole paragraph is still a layout, read within a bound.
const MAX_HEADER_CELLS = 256;
const MAX_CELL_CHARS = 200;
// An id is a short reference ("IAM-02", "A.1.1"); a longer text in the id column says nothing of its pattern.
const MAX_ID_CHARS = 24;

/** The part of a sheet's mapping the fingerprint reads: the header row, the id column and the question rows. */
export type FingerprintMapping = Pick<Mapping, 'sheet' | 'headerRow' | 'idColumn'> & {
  firstRow?: number;
  lastRow?: number;
};

function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

/**
 * The workbook's sheet names in order (hidden ones too: a template's list sheets are part of it), as one key: the
 * first sieve of a lookup, before any sheet is read.
 */
export function sheetNamesKey(sheets: readonly Pick<RawSheet, 'name'>[]): string {
  return `${VERSION}:${sha256(JSON.stringify(sheets.map((sheet) => sheet.name)))}`;
}

/**
 * The shape of an id: each letter an A, each digit a 0, other characters as they are ("IAM-02" → "AAA-00",
 * "A.1.10" → "A.0.00").
 */
export function idShape(id: string): string {
  return id.trim().replace(/\s+/g, ' ').replace(/\p{L}/gu, 'A').replace(/\p{N}/gu, '0');
}

/**
 * The id pattern of a sheet: the most common shape of the ids in its question rows (the earliest in code order on a
 * tie), or null without an id column or ids. Ids differ from one file to the next; their shape is the template's.
 */
export function idPattern(rows: readonly (readonly string[])[], mapping: FingerprintMapping): string | null {
  if (mapping.idColumn === null) return null;
  const first = Math.max(mapping.headerRow + 1, mapping.firstRow ?? 0);
  const last = Math.min(rows.length - 1, mapping.lastRow ?? rows.length - 1);
  const counts = new Map<string, number>();
  for (let index = first; index <= last; index += 1) {
    const id = (rows[index]?.[mapping.idColumn] ?? '').trim();
    if (id === '' || id.length > MAX_ID_CHARS) continue;
    const shape = idShape(id);
    counts.set(shape, (counts.get(shape) ?? 0) + 1);
  }
  let best: { shape: string; count: number } | null = null;
  for (const [shape, count] of counts) {
    if (!best || count > best.count || (count === best.count && shape < best.shape)) best = { shape, count };
  }
  return best?.shape ?? null;
}

/** A header's labels as compared: trimmed, spaces folded, lower case, the empty cells at the end dropped. */
export function headerCells(rows: readonly (readonly string[])[], headerRow: number): string[] {
  if (headerRow < 0) return [];
  const cells = (rows[headerRow] ?? [])
    .slice(0, MAX_HEADER_CELLS)
    .map((cell) => cell.replace(/\s+/g, ' ').trim().toLowerCase().slice(0, MAX_CELL_CHARS));
  while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
  return cells;
}

/**
 * The fingerprint of a workbook's layout under a mapping: its sheet names in order, and for each mapped sheet (in
 * workbook order) its name, the cells of its header row and the pattern of its ids. Nothing else of the file counts
 * (not its bytes, questions or answers), so the next file of the same template has the same fingerprint under the
 * same mapping, and a renamed sheet, a changed header or another id scheme does not.
 *
 * Read under a mapping rather than under detection's guess: a remembered layout is checked against a new file with
 * its own header rows and id columns, so a change in detection never makes a remembered layout unknown.
 */
export function layoutFingerprint(sheets: readonly RawSheet[], mapping: readonly FingerprintMapping[]): string {
  const mapped = sheets.flatMap((sheet) => {
    const sheetMapping = mapping.find((m) => m.sheet === sheet.name);
    if (!sheetMapping) return [];
    return [
      {
        sheet: sheet.name,
        header: headerCells(sheet.rows, sheetMapping.headerRow),
        ids: idPattern(sheet.rows, sheetMapping),
      },
    ];
  });
  const names = sheets.map((sheet) => sheet.name);
  return `${VERSION}:${sha256(JSON.stringify({ names, mapped }))}`;
}
