import { MAX_QUESTION_CHARS } from './messages';
import {
  isAnswerChoice,
  isAnswerChoiceList,
  isControlId,
  isNumberOnly,
  isQuestionLike,
  isStatementLike,
} from './text-patterns';
import type { RawSheet } from './types';
import { allowedValuesAt } from './xlsx-validations';

// What the cells of each column look like, for choosing columns by content when headers do not settle it.

// Enough rows to judge what a column holds without reading all of a very long sheet.
const SAMPLE_ROWS = 2_000;

export type ColumnStats = {
  nonEmpty: number;
  /** Cells with a word in them, however short ("MFA?"), as opposed to numbers and ids. */
  wordy: number;
  /** Cells with words in them (not numbers, not ids), at least a few words long. */
  text: number;
  questionLike: number;
  statements: number;
  totalLength: number;
  controlIds: number;
  /** Different control ids: a column repeating "0.000" or "1.1" holds scores or levels, not references. */
  distinctIds: number;
  answerChoices: number;
  /** Cells with a dropdown of answer choices (Yes / No / N/A). */
  choiceDropdowns: number;
  anyDropdowns: number;
};

/** Statistics per column over up to SAMPLE_ROWS rows from startRow. */
export function columnContent(sheet: RawSheet, startRow: number): ColumnStats[] {
  const stats: ColumnStats[] = [];
  const end = Math.min(sheet.rows.length, startRow + SAMPLE_ROWS);
  const dropdownCache = new Map<string[], boolean>();
  const sheetWidth = columnCount(sheet);
  const ids: Set<string>[] = [];
  for (let r = startRow; r < end; r += 1) {
    const row = sheet.rows[r] ?? [];
    const width = Math.max(row.length, sheetWidth);
    for (let c = 0; c < width; c += 1) {
      const entry = (stats[c] ??= {
        nonEmpty: 0,
        wordy: 0,
        text: 0,
        questionLike: 0,
        statements: 0,
        totalLength: 0,
        controlIds: 0,
        distinctIds: 0,
        answerChoices: 0,
        choiceDropdowns: 0,
        anyDropdowns: 0,
      });
      if (sheet.validations.length > 0) {
        const values = allowedValuesAt(sheet.validations, r, c);
        if (values) {
          entry.anyDropdowns += 1;
          let isChoice = dropdownCache.get(values);
          if (isChoice === undefined) {
            isChoice = isAnswerChoiceList(values);
            dropdownCache.set(values, isChoice);
          }
          if (isChoice) entry.choiceDropdowns += 1;
        }
      }
      const cell = row[c] ?? '';
      if (cell === '') continue;
      entry.nonEmpty += 1;
      // Never a question (see MAX_QUESTION_CHARS), and not worth scanning megabytes to say so.
      if (cell.length > MAX_QUESTION_CHARS) continue;
      if (isControlId(cell)) {
        entry.controlIds += 1;
        const seen = (ids[c] ??= new Set());
        if (!seen.has(cell)) {
          seen.add(cell);
          entry.distinctIds += 1;
        }
      } else if (/\p{L}.*\p{L}/su.test(cell)) entry.wordy += 1;
      if (isAnswerChoice(cell)) entry.answerChoices += 1;
      if (isNumberOnly(cell) || cell.length < 8) continue;
      entry.text += 1;
      entry.totalLength += Math.min(cell.length, 2_000);
      if (isQuestionLike(cell)) entry.questionLike += 1;
      else if (isStatementLike(cell)) entry.statements += 1;
    }
  }
  return stats;
}

/** 0–999: how much a column reads like questions, for choosing between columns with equally good headers. */
export function contentScore(stats: ColumnStats | undefined): number {
  if (!stats || stats.text === 0) return 0;
  const share = (stats.questionLike * 2 + stats.statements) / (stats.text * 2);
  const averageLength = Math.min(stats.totalLength / stats.text, 300) / 300;
  return Math.round(share * 700 + averageLength * 299);
}

/** How much a column looks like where answers go, from its dropdowns and the values already in it. */
export function answerEvidence(stats: ColumnStats | undefined): number {
  if (!stats) return 0;
  let score = 0;
  if (stats.choiceDropdowns > 0) score += 80;
  else if (stats.anyDropdowns > 0) score += 10;
  if (stats.answerChoices >= 2 && stats.answerChoices * 2 >= stats.nonEmpty) score += 40;
  return score;
}

/** Control ids that are mostly different from each other, as references are. */
export function holdsReferences(stats: ColumnStats | undefined): boolean {
  return !!stats && stats.controlIds >= 2 && stats.distinctIds >= stats.controlIds * 0.9;
}

/** The leftmost column (other than the question column) whose values mostly look like distinct control ids. */
export function idColumnByContent(content: readonly ColumnStats[], questionColumn: number): number | null {
  let best: number | null = null;
  content.forEach((stats, column) => {
    if (column === questionColumn || stats.nonEmpty < 2) return;
    if (stats.controlIds < stats.nonEmpty * 0.6 || !holdsReferences(stats)) return;
    // Leftmost wins: ids are written before the question.
    if (best === null) best = column;
  });
  return best;
}

// Answer columns are usually empty, so the widest row can stop short of them; their dropdowns still count. A
// validation over whole rows ("1:1048576") must not make the sheet 16,384 columns wide.
const MAX_EXTRA_COLUMNS = 20;
const widths = new WeakMap<RawSheet, number>();

/** Columns a sheet uses: its widest row, extended to the dropdowns just right of it. */
export function columnCount(sheet: RawSheet): number {
  const known = widths.get(sheet);
  if (known !== undefined) return known;
  const cells = sheet.rows.reduce((max, row) => Math.max(max, row.length), 0);
  let width = cells;
  for (const validation of sheet.validations) {
    for (const range of validation.ranges) {
      const right = Math.min(range.right + 1, cells + MAX_EXTRA_COLUMNS);
      if (range.left < cells + MAX_EXTRA_COLUMNS) width = Math.max(width, right);
    }
  }
  widths.set(sheet, width);
  return width;
}
