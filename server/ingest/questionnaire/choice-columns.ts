import {
  DEFAULT_CHOICE_MARK,
  headerRoles,
  isAnswerChoice,
  isChoiceMark,
  isQuestionLike,
  wordCount,
} from './text-patterns';
import type { AnswerChoiceColumn, RawSheet } from './types';

// Answers given by marking one of several columns side by side, each labelled with an answer (CAIQ v3: an "X"
// under Yes, No or Not Applicable). Whichever column holds the mark, the row is answered.

// Enough rows to see which marks a sheet uses and whether a labelled column holds only marks.
const SAMPLE_ROWS = 2_000;
// A column under an answer label holding mostly other text (explanations) is a column of text, not of marks.
const MARKS_SHARE = 0.9;
// A row of labels under the header has short cells; a question there makes it a data row.
const MAX_LABEL_WORDS = 6;

export type ChoiceColumns = {
  /** The last row of labels: the header row, or the row of sub-labels under it. Answers start below. */
  row: number;
  choices: AnswerChoiceColumn[];
};

/**
 * The columns an answer is marked under, found from two or more answer labels side by side: in a row of
 * sub-labels under a header cell merged across them ("Consensus Assessment Answers" over Yes / No / Not
 * Applicable), or in the header row itself ("Question | Yes | No | N/A | Notes") over cells that hold only marks.
 * Each choice carries the mark the sheet uses there.
 */
export function findChoiceColumns(sheet: RawSheet, headerRow: number): ChoiceColumns | null {
  const found = subLabelChoices(sheet, headerRow) ?? headerChoices(sheet, headerRow);
  return found ? { row: found.row, choices: withMarks(sheet, found.choices, found.row + 1) } : null;
}

/**
 * The mark to write under each choice: the one already given, else the one the customer uses in that column,
 * else the sheet's usual one (unless that is another column's label, "Yes" written under Yes), else the column's label when marks are
 * labels, else DEFAULT_CHOICE_MARK.
 */
export function withMarks(
  sheet: RawSheet,
  choices: readonly AnswerChoiceColumn[],
  fromRow: number,
): AnswerChoiceColumn[] {
  const own = choices.map(() => new Map<string, number>());
  const all = new Map<string, number>();
  const end = Math.min(sheet.rows.length, Math.max(0, fromRow) + SAMPLE_ROWS);
  for (let r = Math.max(0, fromRow); r < end; r += 1) {
    const row = sheet.rows[r] ?? [];
    // A respondent marks one column; a row holding every label is the row of labels itself.
    if (choices.every((choice) => sameText(row[choice.column] ?? '', choice.label))) continue;
    choices.forEach((choice, i) => {
      const cell = (row[choice.column] ?? '').trim();
      if (!isChoiceMark(cell, choice.label)) return;
      const counts = own[i];
      if (counts) counts.set(cell, (counts.get(cell) ?? 0) + 1);
      all.set(cell, (all.get(cell) ?? 0) + 1);
    });
  }
  const usual = mostCommon(all);
  const usualIsLabel = usual !== null && choices.some((choice) => sameText(usual, choice.label));
  return choices.map((choice, i) => {
    const mark =
      choice.mark ?? mostCommon(own[i]) ?? (usual === null ? DEFAULT_CHOICE_MARK : usualIsLabel ? choice.label : usual);
    return { column: choice.column, label: choice.label, mark };
  });
}

/** CAIQ v3: the row under the header labels the sub-columns of an answer header merged across them. */
function subLabelChoices(sheet: RawSheet, headerRow: number): ChoiceColumns | null {
  const row = sheet.rows[headerRow + 1];
  if (!row) return null;
  const header = sheet.rows[headerRow] ?? [];
  const run = choiceRuns(row).find((candidate) => {
    const above = candidate.map((choice) => header[choice.column] ?? '');
    // One header over the sub-columns: merged (only the first holds the label), repeated in each, or naming the
    // answer ("Consensus Assessment Answers", "CSP CAIQ Answer").
    return above.some((label) => label === '') || new Set(above).size === 1 || headerRoles(above[0] ?? '').answer > 0;
  });
  if (!run) return null;
  // The rest of the row may label other columns' parts; a question, or anything under the question column's
  // label, makes it the first row of data.
  const inRun = new Set(run.map((choice) => choice.column));
  const labelsOnly = row.every(
    (cell, column) =>
      cell === '' ||
      inRun.has(column) ||
      (wordCount(cell) <= MAX_LABEL_WORDS && !isQuestionLike(cell) && headerRoles(header[column] ?? '').question === 0),
  );
  return labelsOnly ? { row: headerRow + 1, choices: run } : null;
}

/** The header row itself labels the choices, and the cells under them hold marks (or nothing yet). */
function headerChoices(sheet: RawSheet, headerRow: number): ChoiceColumns | null {
  const header = sheet.rows[headerRow];
  if (!header) return null;
  const end = Math.min(sheet.rows.length, headerRow + 1 + SAMPLE_ROWS);
  const run = choiceRuns(header).find((candidate) => {
    let filled = 0;
    let marks = 0;
    for (let r = headerRow + 1; r < end; r += 1) {
      const row = sheet.rows[r] ?? [];
      for (const choice of candidate) {
        const cell = row[choice.column] ?? '';
        if (cell === '') continue;
        filled += 1;
        if (isChoiceMark(cell, choice.label)) marks += 1;
      }
    }
    return marks >= filled * MARKS_SHARE;
  });
  return run ? { row: headerRow, choices: run } : null;
}

/** Runs of two or more adjacent cells labelled with answers (Yes / No / N/A), left to right. */
function choiceRuns(row: readonly string[]): AnswerChoiceColumn[][] {
  const runs: AnswerChoiceColumn[][] = [];
  let current: AnswerChoiceColumn[] = [];
  const close = () => {
    if (current.length >= 2) runs.push(current);
    current = [];
  };
  row.forEach((cell, column) => {
    if (cell !== '' && isAnswerChoice(cell)) current.push({ column, label: cell });
    else close();
  });
  close();
  return runs;
}

function sameText(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function mostCommon(counts: ReadonlyMap<string, number> | undefined): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [value, count] of counts ?? []) {
    if (count > bestCount) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}
