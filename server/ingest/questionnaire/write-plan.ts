import { ADDED_COLUMN_HEADERS } from '../../../common/constants';
import { attributeValue, isTrue } from './write-xml';
import { dropdownAnswer } from './write-choice';
import type { CellRange } from './write-ref';
import { formulaEdits } from './write-formulas';
import type { CellEdit, SheetEdits } from './write-sheet-patch';
import { choiceMark } from './write-marks';
import { effectiveStyle, type WorksheetScan } from './write-sheet-scan';
import { cleanCellText } from './write-text';
import { type AnswerCell, EXCEL_LIMITS, WriteBackError, type WriteTarget } from './write-types';

// A hidden range of up to this many columns is passed over; a longer one (every column to XFD hidden, as forms do
// to show only the table) is split instead, the new column visible inside it.
const LONGEST_HIDDEN_SKIP = 64;

/** Headers and widths (in Excel's character units) of the columns write-back may add. */
export const ADDED_COLUMNS = {
  response: { header: ADDED_COLUMN_HEADERS.response, width: 60 },
  comments: { header: ADDED_COLUMN_HEADERS.comments, width: 50 },
  source: { header: ADDED_COLUMN_HEADERS.source, width: 40 },
} as const;

/** Where one target's answers go, once any missing column has been placed. */
type Layout = {
  target: WriteTarget;
  answerColumn: number;
  /** Set when the answer cell is a dropdown: it then gets the allowed value and this column the explanation. */
  commentsColumn: number | null;
  sourceColumn: number | null;
  /** Columns this write adds; their cells take the question column's style. */
  added: Set<number>;
};

export type SheetPlan = {
  edits: SheetEdits;
  /** Some formula was overwritten or frozen, so the workbook's calculation chain is stale. */
  removesFormulas: boolean;
};

/**
 * The cell edits and added columns that put `answers` into one sheet laid out as `targets` say. `emptyStrings` are
 * the workbook's shared strings that show nothing, so a cell pointing at one counts as blank for a choice mark.
 */
export function planSheet(
  scan: WorksheetScan,
  targets: readonly WriteTarget[],
  answers: readonly AnswerCell[],
  emptyStrings: ReadonlySet<number> = new Set(),
): SheetPlan {
  for (const target of targets) validateTarget(target);
  const ordered = [...targets].sort((a, b) => a.headerRow - b.headerRow);
  const edits: SheetEdits = { cells: new Map(), newColumns: [] };
  const put = (row: number, column: number, edit: CellEdit) => {
    const rowEdits = edits.cells.get(row) ?? new Map<number, CellEdit>();
    rowEdits.set(column, edit);
    edits.cells.set(row, rowEdits);
  };
  const reserved = new Set<number>();
  const layouts = new Map<WriteTarget, Layout>();
  // A row's own dropdown makes its target one whose explanation needs a comments column.
  const rowLists = answers.some((answer) => (answer.allowedValues?.length ?? 0) > 0);
  for (const target of ordered) {
    const layout = layOut(scan, target, reserved, rowLists);
    layouts.set(target, layout);
    const headerStyle = effectiveStyle(scan, target.headerRow, target.questionColumn);
    for (const column of layout.added) {
      const header = headerFor(layout, column);
      // A sheet without a header row (headerRow 0) gets the column, not a label above its first question.
      if (target.headerRow >= 1)
        put(target.headerRow, column, { kind: 'text', text: header.header, style: headerStyle });
      edits.newColumns.push({ column, width: header.width });
    }
  }
  const mergesByTop = new Map<number, CellRange[]>();
  for (const merge of scan.merges) mergesByTop.set(merge.top, [...(mergesByTop.get(merge.top) ?? []), merge]);
  for (const answer of answers) {
    validateRow(answer.row);
    // A sheet may hold several tables; an answer belongs to the nearest header above it. A form's fields above its
    // first header (contact details, the date) belong to the first table.
    const target =
      ordered.filter((t) => t.headerRow < answer.row).pop() ?? ordered.find((t) => t.headerRow !== answer.row);
    const layout = target ? layouts.get(target) : undefined;
    if (!layout) {
      throw new WriteBackError(
        'invalid_target',
        `Row ${answer.row} of "${answer.sheet}" is not below a question table's header.`,
      );
    }
    const styleAt = (column: number) =>
      effectiveStyle(scan, answer.row, layout.added.has(column) ? layout.target.questionColumn : column);
    const write = (column: number, text: string) => {
      const at = mergeAnchor(mergesByTop.get(answer.row) ?? [], column, layout.target.questionColumn);
      if (text !== '') put(answer.row, at, { kind: 'text', text, style: styleAt(at) });
    };
    const text = cleanCellText(answer.answer);
    // A row's own list (or its lack of one, null) is known better than the sheet's first list.
    const allowed = (answer.allowedValues !== undefined ? answer.allowedValues : layout.target.allowedValues) ?? [];
    if (layout.commentsColumn !== null && allowed.length > 0) {
      // No mapped value: the dropdown cell is left as it is rather than given a value its list does not offer; when
      // the list grades the answer ("Yes, for some…", "Yes, for all…") the comments say a person must pick.
      const { choice, comments } = dropdownAnswer(answer.shortAnswer, allowed, text, answer.choice);
      if (choice !== null) write(layout.answerColumn, cleanCellText(choice));
      if (!answer.keepComments) write(layout.commentsColumn, cleanCellText(comments));
    } else {
      write(layout.answerColumn, text);
    }
    if (layout.sourceColumn !== null && answer.source) write(layout.sourceColumn, cleanCellText(answer.source));
    const mark = choiceMark(
      scan,
      emptyStrings,
      answer.row,
      layout.target.choiceColumns ?? [],
      answer.shortAnswer,
      answer.choice,
    );
    if (mark)
      put(answer.row, mark.column, { kind: 'text', text: cleanCellText(mark.mark), style: styleAt(mark.column) });
  }
  const formulas = formulaEdits(scan, edits.cells);
  for (const { row, column } of formulas.frozen) put(row, column, { kind: 'freeze' });
  return { edits, removesFormulas: formulas.removesFormulas };
}

function headerFor(layout: Layout, column: number): { header: string; width: number } {
  if (column === layout.answerColumn) return ADDED_COLUMNS.response;
  if (column === layout.commentsColumn) return ADDED_COLUMNS.comments;
  return ADDED_COLUMNS.source;
}

function layOut(scan: WorksheetScan, target: WriteTarget, reserved: Set<number>, rowLists: boolean): Layout {
  const dropdown = target.answerColumn !== null && ((target.allowedValues?.length ?? 0) > 0 || rowLists);
  const added = new Set<number>();
  const occupied = occupiedColumns(scan, target.headerRow);
  const headerCells = scan.rowsByNumber.get(target.headerRow)?.cells.filter((c) => c.hasValue) ?? [];
  let cursor = Math.max(
    target.questionColumn,
    target.answerColumn ?? 0,
    target.commentsColumn ?? 0,
    ...headerCells.map((c) => c.column),
  );
  // The first column right of the table with nothing in it from the header down and no merge across it.
  // A column the customer hid (a form's spare columns, a hidden lookup range) stays hidden: the answers go past it.
  const hiddenCols = scan.cols.filter((col) => isTrue(attributeValue(col.attributes, 'hidden')));
  const hidden = (column: number) =>
    hiddenCols.some((c) => c.min <= column && column <= c.max && c.max - c.min < LONGEST_HIDDEN_SKIP);
  const allocate = (): number => {
    do cursor += 1;
    while (occupied.has(cursor) || reserved.has(cursor) || hidden(cursor));
    if (cursor > EXCEL_LIMITS.columns) {
      throw new WriteBackError('invalid_target', `"${target.sheet}" has no free column left for the answers.`);
    }
    reserved.add(cursor);
    added.add(cursor);
    return cursor;
  };
  const answerColumn = target.answerColumn ?? allocate();
  // A comments column that is the answer column itself (a confused mapping) cannot take the explanation.
  const ownComments = target.commentsColumn === target.answerColumn ? null : target.commentsColumn;
  const commentsColumn = dropdown ? (ownComments ?? allocate()) : null;
  const sourceColumn = target.addSourceColumn ? allocate() : null;
  return { target, answerColumn, commentsColumn, sourceColumn, added };
}

function occupiedColumns(scan: WorksheetScan, fromRow: number): Set<number> {
  const occupied = new Set<number>();
  for (const row of scan.rows) {
    if (row.row < fromRow) continue;
    for (const cell of row.cells) if (cell.hasValue) occupied.add(cell.column);
  }
  for (const merge of scan.merges) {
    if (merge.bottom < fromRow) continue;
    for (let column = merge.left; column <= merge.right; column += 1) occupied.add(column);
  }
  return occupied;
}

/**
 * A cell hidden under a horizontal merge (answer area merged across D:F, detected column E) shows nothing; the
 * text goes to the merge's visible top-left cell instead, unless that is the question itself.
 */
function mergeAnchor(mergesStartingHere: readonly CellRange[], column: number, questionColumn: number): number {
  const merge = mergesStartingHere.find((m) => m.left <= column && column <= m.right);
  if (!merge || merge.left === column || merge.left === questionColumn) return column;
  return merge.left;
}

function validateTarget(target: WriteTarget): void {
  const columns = [target.questionColumn, target.answerColumn, target.commentsColumn].filter(
    (c): c is number => c !== null,
  );
  const bad = columns.some((c) => !Number.isInteger(c) || c < 1 || c > EXCEL_LIMITS.columns);
  if (bad || !Number.isInteger(target.headerRow) || target.headerRow < 0 || target.headerRow >= EXCEL_LIMITS.rows) {
    throw new WriteBackError('invalid_target', `The column mapping for "${target.sheet}" is out of the sheet's range.`);
  }
  if (target.answerColumn === target.questionColumn || target.commentsColumn === target.questionColumn) {
    throw new WriteBackError('invalid_target', `The answers for "${target.sheet}" would overwrite its questions.`);
  }
  for (const choice of target.choiceColumns ?? []) {
    if (!Number.isInteger(choice.column) || choice.column < 1 || choice.column > EXCEL_LIMITS.columns) {
      throw new WriteBackError(
        'invalid_target',
        `The column mapping for "${target.sheet}" is out of the sheet's range.`,
      );
    }
    if (choice.column === target.questionColumn || choice.column === target.answerColumn) {
      throw new WriteBackError(
        'invalid_target',
        `The marks for "${target.sheet}" would overwrite its questions or answers.`,
      );
    }
  }
}

function validateRow(row: number): void {
  if (!Number.isInteger(row) || row < 1 || row > EXCEL_LIMITS.rows) {
    throw new WriteBackError('invalid_target', `Row ${row} is outside the sheet.`);
  }
}
