import type { ScannedCol, WorksheetScan } from './write-sheet-scan';
import {
  attributeValue,
  isTrue,
  serializeAttributes,
  type Splice,
  withAttribute,
  withoutAttributes,
  type XmlAttribute,
} from './write-xml';

// A custom width narrower than this is a filler column (forms set 2–8 for spacing): too narrow for an answer.
const MIN_READABLE_WIDTH = 15;

/** A column write-back adds (Response, Comments, Source) and the width it should get. */
export type NewColumn = { column: number; width: number };

/**
 * Widths for the added columns. A `<col>` that already sets a visible, readable custom width there is respected. A range
 * without a custom width (LibreOffice's trailing "every other column" entry) or a hidden one (forms often hide the
 * columns right of the table) is split, so the new column is visible and wide enough while its neighbours keep
 * everything they had.
 */
export function colsSplices(scan: WorksheetScan, newColumns: readonly NewColumn[]): Splice[] {
  const splices: Splice[] = [];
  const uncovered: NewColumn[] = [];
  const splits = new Map<ScannedCol, NewColumn[]>();
  for (const added of newColumns) {
    const covering = scan.cols.find((col) => col.min <= added.column && added.column <= col.max);
    if (!covering) {
      uncovered.push(added);
    } else if (
      !isTrue(attributeValue(covering.attributes, 'customWidth')) ||
      isTrue(attributeValue(covering.attributes, 'hidden')) ||
      Number(attributeValue(covering.attributes, 'width') ?? 0) < MIN_READABLE_WIDTH
    ) {
      splits.set(covering, [...(splits.get(covering) ?? []), added]);
    }
  }
  for (const [col, added] of splits) splices.push({ start: col.start, end: col.end, text: splitCol(scan, col, added) });
  splices.push(...insertions(scan, uncovered));
  return splices;
}

function splitCol(scan: WorksheetScan, col: ScannedCol, added: NewColumn[]): string {
  const sorted = [...added].sort((a, b) => a.column - b.column);
  const pieces: string[] = [];
  let from = col.min;
  for (const { column, width } of sorted) {
    if (column > from) pieces.push(colElement(scan.prefix, col.attributes, from, column - 1));
    pieces.push(
      colElement(scan.prefix, sized(withoutAttributes(col.attributes, ['hidden', 'bestFit']), width), column, column),
    );
    from = column + 1;
  }
  if (from <= col.max) pieces.push(colElement(scan.prefix, col.attributes, from, col.max));
  return pieces.join('');
}

function insertions(scan: WorksheetScan, uncovered: NewColumn[]): Splice[] {
  if (uncovered.length === 0) return [];
  const p = scan.prefix;
  const byPosition = new Map<number, string[]>();
  for (const { column, width } of [...uncovered].sort((a, b) => a.column - b.column)) {
    const xml = colElement(p, sized([], width), column, column);
    // `<col>` entries must stay sorted by column.
    const next = scan.cols.find((col) => col.min > column);
    const last = scan.cols[scan.cols.length - 1];
    const at = next ? next.start : last ? last.end : -1;
    byPosition.set(at, [...(byPosition.get(at) ?? []), xml]);
  }
  const splices: Splice[] = [];
  for (const [at, texts] of byPosition) {
    if (at !== -1) {
      splices.push({ start: at, end: at, text: texts.join('') });
      continue;
    }
    const existing = scan.colsElement;
    if (existing) {
      // An empty `<cols/>`: replace it, as it cannot take children.
      const open = `<${p}cols${serializeAttributes(existing.attributes)}>`;
      splices.push({ start: existing.start, end: existing.end, text: `${open}${texts.join('')}</${p}cols>` });
    } else {
      // CT_Worksheet's sequence puts <cols> right before <sheetData>.
      const at = scan.sheetData.start;
      splices.push({ start: at, end: at, text: `<${p}cols>${texts.join('')}</${p}cols>` });
    }
  }
  return splices;
}

function sized(attributes: XmlAttribute[], width: number): XmlAttribute[] {
  return withAttribute(withAttribute(attributes, 'width', String(width)), 'customWidth', '1');
}

function colElement(p: string, attributes: readonly XmlAttribute[], min: number, max: number): string {
  const rest = withoutAttributes(attributes, ['min', 'max']);
  const bounds: XmlAttribute[] = [
    { name: 'min', raw: String(min), quote: '"' },
    { name: 'max', raw: String(max), quote: '"' },
  ];
  return `<${p}col${serializeAttributes([...bounds, ...rest])}/>`;
}
