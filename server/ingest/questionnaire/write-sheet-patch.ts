import { colsSplices, type NewColumn } from './write-cols';
import { cellRef, formatRange, parseRange } from './write-ref';
import type { ScannedCell, ScannedRow, WorksheetScan } from './write-sheet-scan';
import { encodeCellText } from './write-text';
import {
  applySplices,
  attributeValue,
  findElement,
  serializeAttributes,
  type Splice,
  withAttribute,
  withoutAttributes,
  type XmlAttribute,
} from './write-xml';

/**
 * What happens to one cell: `text` writes an inline string (already cleaned by cleanCellText) with the given style
 * index; `freeze` drops the cell's formula and keeps its last value (see write-plan for when that is needed).
 */
export type CellEdit = { kind: 'text'; text: string; style: string | null } | { kind: 'freeze' };

export type SheetEdits = {
  /** row → column → edit */
  cells: Map<number, Map<number, CellEdit>>;
  newColumns: NewColumn[];
};

/** The sheet's XML with the edits applied; everything outside the touched rows, `<dimension>` and `<cols>` is kept. */
export function patchWorksheet(scan: WorksheetScan, edits: SheetEdits): string {
  const splices = [...rowSplices(scan, edits.cells), ...colsSplices(scan, edits.newColumns)];
  const dimension = dimensionSplice(scan, edits.cells);
  if (dimension) splices.push(dimension);
  return applySplices(scan.xml, splices);
}

function rowSplices(scan: WorksheetScan, cells: Map<number, Map<number, CellEdit>>): Splice[] {
  const p = scan.prefix;
  const splices: Splice[] = [];
  for (const row of scan.rows) {
    const rowEdits = scan.rowsByNumber.get(row.row) === row ? cells.get(row.row) : undefined;
    if (rowEdits) {
      splices.push({ start: row.start, end: row.end, text: rebuildRow(scan, row, rowEdits) });
    } else if (!row.explicitRef) {
      // A row without `r` is numbered by position. Inserted rows never fall between such a row and the one before
      // it, but writing the number out keeps the edited sheet free of inference for readers that get it wrong.
      const at = row.start + `<${p}row`.length;
      splices.push({ start: at, end: at, text: ` r="${row.row}"` });
    }
  }
  const inserts = new Map<number, string[]>();
  const newRows = [...cells.keys()].filter((n) => !scan.rowsByNumber.has(n)).sort((a, b) => a - b);
  // Rows are in ascending order in any valid sheet, so one forward walk finds each insertion point.
  const byNumber = [...scan.rows].sort((a, b) => a.row - b.row);
  let nextIndex = 0;
  for (const number of newRows) {
    const rowEdits = cells.get(number);
    const texts = rowEdits ? textEdits(rowEdits) : [];
    if (texts.length === 0) continue;
    while ((byNumber[nextIndex]?.row ?? Infinity) < number) nextIndex += 1;
    const next = byNumber[nextIndex];
    const at = next ? next.start : scan.sheetData.contentEnd;
    const xml = `<${p}row r="${number}"${spansAttribute(texts)}>${texts.map(([column, edit]) => textCell(p, number, column, edit, [])).join('')}</${p}row>`;
    inserts.set(at, [...(inserts.get(at) ?? []), xml]);
  }
  if (inserts.size === 0) return splices;
  if (scan.sheetData.selfClosing) {
    const open = `<${p}sheetData${serializeAttributes(scan.sheetData.attributes)}>`;
    const body = [...inserts.values()].flat().join('');
    splices.push({ start: scan.sheetData.start, end: scan.sheetData.end, text: `${open}${body}</${p}sheetData>` });
    return splices;
  }
  for (const [at, texts] of inserts) splices.push({ start: at, end: at, text: texts.join('') });
  return splices;
}

function textEdits(rowEdits: Map<number, CellEdit>): [number, CellEdit & { kind: 'text' }][] {
  return [...rowEdits]
    .filter((entry): entry is [number, CellEdit & { kind: 'text' }] => entry[1].kind === 'text')
    .sort((a, b) => a[0] - b[0]);
}

function spansAttribute(texts: [number, CellEdit][]): string {
  const first = texts[0]?.[0];
  const last = texts[texts.length - 1]?.[0];
  return first === undefined || last === undefined ? '' : ` spans="${first}:${last}"`;
}

function rebuildRow(scan: WorksheetScan, row: ScannedRow, rowEdits: Map<number, CellEdit>): string {
  const { xml, prefix: p } = scan;
  const existing = new Set(row.cells.map((c) => c.column));
  const pending = textEdits(rowEdits).filter(([column]) => !existing.has(column));
  const parts: string[] = [`<${p}row${serializeAttributes(rowAttributes(row, rowEdits))}>`];
  const done = new Set<number>();
  let cursor = row.openTagEnd;
  for (const cell of row.cells) {
    parts.push(xml.slice(cursor, cell.start));
    while (pending.length > 0 && (pending[0]?.[0] ?? Infinity) < cell.column) {
      const next = pending.shift();
      if (next) parts.push(textCell(p, row.row, next[0], next[1], []));
    }
    const edit = done.has(cell.column) ? undefined : rowEdits.get(cell.column);
    done.add(cell.column);
    parts.push(editedCell(scan, row.row, cell, edit));
    cursor = cell.end;
  }
  for (const [column, edit] of pending) parts.push(textCell(p, row.row, column, edit, []));
  // Whatever follows the cells (an extLst, whitespace) stays after them.
  if (!row.selfClosing) parts.push(xml.slice(cursor, row.contentEnd));
  parts.push(`</${p}row>`);
  return parts.join('');
}

function rowAttributes(row: ScannedRow, rowEdits: Map<number, CellEdit>): XmlAttribute[] {
  let attributes = row.explicitRef ? row.attributes : withRefFirst(row.attributes, String(row.row));
  const spans = attributeValue(attributes, 'spans');
  if (spans !== null) {
    // `spans` is only an optimisation hint, but one that excludes a written cell is wrong: widen it.
    const bounds = spans
      .split(/[\s:]+/)
      .map(Number)
      .filter(Number.isInteger);
    const columns = [...bounds, ...textEdits(rowEdits).map(([column]) => column)];
    attributes = withAttribute(attributes, 'spans', `${Math.min(...columns)}:${Math.max(...columns)}`);
  }
  return attributes;
}

function editedCell(scan: WorksheetScan, row: number, cell: ScannedCell, edit: CellEdit | undefined): string {
  const { xml, prefix: p } = scan;
  if (edit?.kind === 'text') return textCell(p, row, cell.column, edit, cell.attributes);
  const attributes = cell.explicitRef
    ? cell.attributes
    : withRefFirst(cell.attributes, cellRef({ row, column: cell.column }));
  if (edit?.kind === 'freeze' && !cell.selfClosing) {
    const content = xml.slice(cell.openTagEnd, cell.contentEnd);
    const f = findElement(content, `${p}f`);
    const inner = f ? content.slice(0, f.start) + content.slice(f.end) : content;
    // `cm` points at cell metadata describing the (dynamic array) formula that is gone.
    return `<${p}c${serializeAttributes(withoutAttributes(attributes, ['cm']))}>${inner}</${p}c>`;
  }
  if (cell.explicitRef) return xml.slice(cell.start, cell.end);
  const inner = cell.selfClosing ? null : xml.slice(cell.openTagEnd, cell.contentEnd);
  const open = `<${p}c${serializeAttributes(attributes)}`;
  return inner === null ? `${open}/>` : `${open}>${inner}</${p}c>`;
}

/**
 * An inline-string cell: sharedStrings.xml stays untouched. The old cell's value, formula, type and metadata go
 * (`vm` would attach a rich value, `cm` a dynamic-array flag, to our text); other attributes (e.g. `ph`) stay.
 */
function textCell(
  p: string,
  row: number,
  column: number,
  edit: CellEdit & { kind: 'text' },
  previous: readonly XmlAttribute[],
): string {
  const kept = withoutAttributes(previous, ['r', 's', 't', 'cm', 'vm']);
  const attributes: XmlAttribute[] = [
    { name: 'r', raw: cellRef({ row, column }), quote: '"' },
    ...(edit.style === null ? [] : [{ name: 's', raw: edit.style, quote: '"' as const }]),
    ...kept,
    { name: 't', raw: 'inlineStr', quote: '"' },
  ];
  const text = encodeCellText(edit.text);
  return `<${p}c${serializeAttributes(attributes)}><${p}is><${p}t xml:space="preserve">${text}</${p}t></${p}is></${p}c>`;
}

function dimensionSplice(scan: WorksheetScan, cells: Map<number, Map<number, CellEdit>>): Splice | null {
  const element = scan.dimension;
  if (!element) return null;
  const current = parseRange(attributeValue(element.attributes, 'ref') ?? '');
  // An unreadable ref is left alone: rewriting it from our cells alone could shrink the used range.
  if (!current) return null;
  let next = current;
  for (const [row, rowEdits] of cells) {
    for (const [column, edit] of rowEdits) {
      if (edit.kind !== 'text') continue;
      next = {
        top: Math.min(next.top, row),
        left: Math.min(next.left, column),
        bottom: Math.max(next.bottom, row),
        right: Math.max(next.right, column),
      };
    }
  }
  if (formatRange(current) === formatRange(next)) return null;
  const attributes = withAttribute(element.attributes, 'ref', formatRange(next));
  return {
    start: element.start,
    end: element.end,
    text: `<${scan.prefix}dimension${serializeAttributes(attributes)}/>`,
  };
}

/** Adds `r` where writers put it, first (replacing an unusable one). */
function withRefFirst(attributes: readonly XmlAttribute[], ref: string): XmlAttribute[] {
  return [{ name: 'r', raw: ref, quote: '"' }, ...withoutAttributes(attributes, ['r'])];
}
