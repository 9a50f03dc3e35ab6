import { parseCellRef, parseRange, type CellRange } from './write-ref';
import { WriteBackError } from './write-types';
import { attributeValue, type ElementSpan, findElement, isTrue, rootPrefix } from './write-xml';

/** A cell's formula, as far as write-back cares: shared and array formulas tie cells together. */
export type FormulaInfo = {
  type: 'normal' | 'shared' | 'array' | 'dataTable';
  /** The range a shared formula's master or an array formula covers. */
  ref: CellRange | null;
  sharedIndex: string | null;
  /** The cell that holds the formula text of a shared or array formula (it has `ref`). */
  master: boolean;
};

export type ScannedCell = ElementSpan & {
  column: number;
  explicitRef: boolean;
  hasValue: boolean;
  style: string | null;
  formula: FormulaInfo | null;
};

export type ScannedRow = ElementSpan & {
  row: number;
  explicitRef: boolean;
  cells: ScannedCell[];
};

export type ScannedCol = ElementSpan & { min: number; max: number };

/** The positions, in the sheet's XML string, of everything write-back reads or changes. */
export type WorksheetScan = {
  xml: string;
  /** The namespace prefix of the sheet's elements ('' or e.g. 'x:'); new elements must use it too. */
  prefix: string;
  sheetData: ElementSpan;
  rows: ScannedRow[];
  rowsByNumber: Map<number, ScannedRow>;
  dimension: ElementSpan | null;
  /** Every `<col>` (of every `<cols>`, in document order). */
  cols: ScannedCol[];
  /** The first `<cols>` element, where new column widths go. */
  colsElement: ElementSpan | null;
  merges: CellRange[];
  /** Cells holding an array or data-table formula, which own a whole range. */
  rangedFormulas: { row: number; column: number; ref: CellRange }[];
};

export function scanWorksheet(xml: string, partName: string): WorksheetScan {
  const prefix = rootPrefix(xml, 'worksheet');
  const sheetData = prefix === null ? null : findElement(xml, `${prefix}sheetData`);
  if (prefix === null || !sheetData) {
    throw new WriteBackError('corrupt', `The workbook part ${partName} is not a readable worksheet.`);
  }
  const rows = scanRows(xml, prefix, sheetData);
  const rowsByNumber = new Map<number, ScannedRow>();
  const rangedFormulas: WorksheetScan['rangedFormulas'] = [];
  for (const row of rows) {
    if (!rowsByNumber.has(row.row)) rowsByNumber.set(row.row, row);
    for (const { formula, column } of row.cells) {
      const ranged = formula?.type === 'array' || formula?.type === 'dataTable';
      if (ranged && formula.master && formula.ref) rangedFormulas.push({ row: row.row, column, ref: formula.ref });
    }
  }
  return {
    xml,
    prefix,
    sheetData,
    rows,
    rowsByNumber,
    dimension: findElement(xml, `${prefix}dimension`, 0, sheetData.start),
    cols: scanCols(xml, prefix, sheetData.start),
    colsElement: findElement(xml, `${prefix}cols`, 0, sheetData.start),
    merges: scanMerges(xml, prefix, sheetData.end),
    rangedFormulas,
  };
}

function scanRows(xml: string, prefix: string, sheetData: ElementSpan): ScannedRow[] {
  const rows: ScannedRow[] = [];
  let previous = 0;
  for (
    let row = findElement(xml, `${prefix}row`, sheetData.openTagEnd, sheetData.contentEnd);
    row;
    row = findElement(xml, `${prefix}row`, row.end, sheetData.contentEnd)
  ) {
    // Without `r`, a row is the one after the previous (ECMA-376 §18.3.1.73); some writers omit it.
    const declared = Number(attributeValue(row.attributes, 'r'));
    const explicitRef = Number.isInteger(declared) && declared > 0;
    const number = explicitRef ? declared : previous + 1;
    previous = number;
    rows.push({ ...row, row: number, explicitRef, cells: scanCells(xml, prefix, row) });
  }
  return rows;
}

const valuePatterns = new Map<string, RegExp>();

function scanCells(xml: string, prefix: string, row: ElementSpan): ScannedCell[] {
  const cells: ScannedCell[] = [];
  if (row.selfClosing) return cells;
  let previous = 0;
  let valuePattern = valuePatterns.get(prefix);
  if (!valuePattern) {
    valuePattern = new RegExp(`<${prefix}(?:v|is|f)[\\s/>]`);
    valuePatterns.set(prefix, valuePattern);
  }
  const formulaTag = `<${prefix}f`;
  for (
    let cell = findElement(xml, `${prefix}c`, row.openTagEnd, row.contentEnd);
    cell;
    cell = findElement(xml, `${prefix}c`, cell.end, row.contentEnd)
  ) {
    const ref = attributeValue(cell.attributes, 'r');
    const address = ref === null ? null : parseCellRef(ref);
    const column = address ? address.column : previous + 1;
    previous = column;
    const inner = cell.selfClosing ? '' : xml.slice(cell.openTagEnd, cell.contentEnd);
    cells.push({
      ...cell,
      column,
      explicitRef: address !== null,
      hasValue: inner !== '' && valuePattern.test(inner),
      style: attributeValue(cell.attributes, 's'),
      formula: inner.includes(formulaTag) ? scanFormula(inner, prefix) : null,
    });
  }
  return cells;
}

// Searched in the cell's own text: in the whole sheet, a cell without a formula would send the search on to the
// next formula anywhere below, making the scan quadratic on sheets with few formulas.
function scanFormula(inner: string, prefix: string): FormulaInfo | null {
  const f = findElement(inner, `${prefix}f`);
  if (!f) return null;
  const declared = attributeValue(f.attributes, 't');
  const type = declared === 'shared' || declared === 'array' || declared === 'dataTable' ? declared : 'normal';
  const refText = attributeValue(f.attributes, 'ref');
  return {
    type,
    ref: refText === null ? null : parseRange(refText),
    sharedIndex: attributeValue(f.attributes, 'si'),
    master: refText !== null,
  };
}

function scanCols(xml: string, prefix: string, until: number): ScannedCol[] {
  const cols: ScannedCol[] = [];
  for (
    let col = findElement(xml, `${prefix}col`, 0, until);
    col;
    col = findElement(xml, `${prefix}col`, col.end, until)
  ) {
    const min = Number(attributeValue(col.attributes, 'min'));
    const max = Number(attributeValue(col.attributes, 'max'));
    if (Number.isInteger(min) && Number.isInteger(max)) cols.push({ ...col, min, max });
  }
  return cols;
}

function scanMerges(xml: string, prefix: string, from: number): CellRange[] {
  const merges: CellRange[] = [];
  for (
    let merge = findElement(xml, `${prefix}mergeCell`, from);
    merge;
    merge = findElement(xml, `${prefix}mergeCell`, merge.end)
  ) {
    const range = parseRange(attributeValue(merge.attributes, 'ref') ?? '');
    if (range) merges.push(range);
  }
  return merges;
}

/** The style a cell shows: its own, else its row's (when the row is formatted), else its column's. */
export function effectiveStyle(scan: WorksheetScan, row: number, column: number): string | null {
  const scannedRow = scan.rowsByNumber.get(row);
  const cell = scannedRow?.cells.find((c) => c.column === column);
  if (cell) return cell.style;
  if (scannedRow && isTrue(attributeValue(scannedRow.attributes, 'customFormat'))) {
    const rowStyle = attributeValue(scannedRow.attributes, 's');
    if (rowStyle !== null) return rowStyle;
  }
  const col = scan.cols.find((c) => c.min <= column && column <= c.max);
  return col ? attributeValue(col.attributes, 'style') : null;
}

export function findCell(scan: WorksheetScan, row: number, column: number): ScannedCell | undefined {
  return scan.rowsByNumber.get(row)?.cells.find((c) => c.column === column);
}
