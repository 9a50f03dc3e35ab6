import { MAX_COLUMNS } from './cell-refs';
import type { Mapping, RawSheet } from './types';

// Cells the workbook computes. Question text may be a formula's cached result (a sheet quoting its master list);
// an answer cell that is a formula is the workbook's own arithmetic (a score, a lookup of an answer given on
// another sheet), never the customer's to fill in.

/**
 * Of the rows that would be questions, the share whose answer cells are formulas from which the whole sheet is
 * taken for an evaluation (a scorecard, a results sheet) rather than a questionnaire. Half: a response sheet may
 * carry a few computed rows (a total, a derived date), an evaluation sheet computes nearly every one.
 */
export const EVALUATION_SHARE = 0.5;

/** A cell's key in RawSheet.formulas: one number, so thousands of formula cells cost a set of numbers. */
export function formulaKey(row: number, column: number): number {
  return row * MAX_COLUMNS + column;
}

/** The cells a row's answer goes to: each of the marked columns, else the answer column (none if it is added). */
export function answerColumnsOf(mapping: Mapping): number[] {
  if (mapping.answerChoiceColumns?.length) return mapping.answerChoiceColumns.map((choice) => choice.column);
  return mapping.answerColumn === null ? [] : [mapping.answerColumn];
}

/** The row's answer is computed by the workbook: some cell it would be written or marked in holds a formula. */
export function answerIsComputed(sheet: RawSheet, row: number, mapping: Mapping): boolean {
  const formulas = sheet.formulas;
  if (!formulas || formulas.size === 0) return false;
  return answerColumnsOf(mapping).some((column) => formulas.has(formulaKey(row, column)));
}

/** Most of the sheet's question rows have computed answers: it evaluates another sheet's answers. */
export function isEvaluationSheet(asked: number, computed: number): boolean {
  return computed > 0 && computed >= (asked + computed) * EVALUATION_SHARE;
}
