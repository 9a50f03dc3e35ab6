import { findChoiceColumns, withMarks } from './choice-columns';
import {
  type ColumnStats,
  answerEvidence,
  columnContent,
  columnCount,
  contentScore,
  idColumnByContent,
} from './column-stats';
import {
  type RoleScores,
  bestRole,
  endsWithQuestionMark,
  headerRoles,
  isControlId,
  isInstruction,
  isNonQuestionSheetName,
  isQuestionLike,
  normalizeLabel,
  wordCount,
} from './text-patterns';
import type { Mapping, RawSheet } from './types';

/** Everything about a sheet's layout that reading its rows needs; `mapping` is the part a user can see and change. */
export type Layout = {
  mapping: Mapping;
  /** Header label per column ('' where none). */
  columns: string[];
  /** A column naming each row's section ("Control Domain", "Category"). */
  sectionColumn: number | null;
  /** CAIQ-style: a row under the header labelling answer sub-columns ("Yes", "No", "Not Applicable"). */
  subHeaderRow: number | null;
};

export type DetectOptions = {
  /**
   * How to find the question column of a sheet without a header row: the column that reads most like questions
   * (files), or the first column holding text (the specification's import-csv: "headers optional, one question per row").
   */
  headerless: 'question-like' | 'first-text';
};

// A header sits near the top; below that, a row of labels is a repeated header or data.
const HEADER_SEARCH_ROWS = 30;
const STRONG_QUESTION_HEADER = 9;

/**
 * Finds, without help, where a sheet's questions are: the header row (skipping a title block above it), the
 * question, answer, comments and id columns. Returns null for a sheet that holds no questionnaire (an instructions
 * page, a hidden list of dropdown values, a glossary).
 */
export function detectLayout(sheet: RawSheet, options: DetectOptions = { headerless: 'question-like' }): Layout | null {
  const header = findHeaderRow(sheet.rows);
  if (header) {
    const layout = layoutWithHeader(sheet, firstOfRepeatedHeaders(sheet.rows, header.index));
    if (layout && acceptsLayout(sheet, layout)) return layout;
  }
  if (isNonQuestionSheetName(sheet.name) && options.headerless === 'question-like') return null;
  return layoutWithoutHeader(sheet, options);
}

/** The layout a user chose in the preview, completed with what detection knows about the rest of the sheet. */
export function layoutFromMapping(sheet: RawSheet, chosen: Mapping): Layout {
  const choices = chosen.answerChoiceColumns;
  // Choice columns picked by hand come without the mark to write under them; the sheet's own marks say which.
  const mapping: Mapping = choices?.length
    ? { ...chosen, answerChoiceColumns: withMarks(sheet, choices, chosen.headerRow + 1) }
    : chosen;
  const columns = padColumns(mapping.headerRow >= 0 ? [...(sheet.rows[mapping.headerRow] ?? [])] : [], sheet);
  const roles = columns.map(headerRoles);
  const taken = new Set([mapping.questionColumn, mapping.answerColumn, mapping.commentsColumn, mapping.idColumn]);
  const sectionColumn = bestColumn(
    roles,
    (role) => role.section,
    (column) => !taken.has(column),
  );
  return { mapping, columns, sectionColumn, subHeaderRow: null };
}

/**
 * Where each section of a sheet starts with its own header row ("General Information | | Answer", "Documentation |
 * | Answer | Additional Information"), the best-labelled of them may come late; the table starts at the first. A
 * repeat is an earlier row with the same answer label in the same column and a name beside it.
 */
function firstOfRepeatedHeaders(rows: readonly string[][], index: number): number {
  const header = rows[index] ?? [];
  const answerAt = header.findIndex((label) => headerRoles(label).answer > 0);
  if (answerAt < 0) return index;
  const label = normalizeLabel(header[answerAt] ?? '');
  for (let r = 0; r < index; r += 1) {
    const cells = rows[r] ?? [];
    // A section's header names the section too; the label alone ("Vendor Response" in a title block) is a title.
    const named = cells.filter((cell) => cell.trim() !== '' && wordCount(cell) <= 12).length >= 2;
    if (named && normalizeLabel(cells[answerAt] ?? '') === label) return r;
  }
  return index;
}

function findHeaderRow(rows: readonly string[][]): { index: number; score: number } | null {
  let best: { index: number; score: number } | null = null;
  for (let index = 0; index < Math.min(rows.length, HEADER_SEARCH_ROWS); index += 1) {
    const cells = (rows[index] ?? []).filter((cell) => cell !== '');
    if (cells.length === 0) continue;
    let question = 0;
    let answer = 0;
    let matched = 0;
    let data = 0;
    for (const cell of cells) {
      // A header cell is a label; a sentence, a question or a control id makes this a row of data or instructions.
      if (
        cell.length > 120 ||
        /[?？@]|https?:/.test(cell) ||
        wordCount(cell) > 12 ||
        isInstruction(cell) ||
        isControlId(cell)
      ) {
        data += 1;
        continue;
      }
      const roles = headerRoles(cell);
      if (bestRole(roles) > 0) matched += 1;
      question = Math.max(question, roles.question);
      answer = Math.max(answer, roles.answer);
    }
    if (data * 2 > cells.length) continue;
    // A header names the question column, or (publishers that leave it blank, with a section name in its place)
    // names where the answer goes next to another role: "Documentation | | Vendor Answers | Additional Information".
    if (question === 0 && !(answer > 0 && matched >= 2)) continue;
    // One weak label alone ("Security Controls" in a title) is not a header; "Question" alone is.
    if (matched < 2 && question < STRONG_QUESTION_HEADER) continue;
    // Where the answer goes is what a questionnaire's header is for; two description-like labels are often data.
    const score = matched * 10 + question + (answer > 0 ? 15 : 0);
    if (!best || score > best.score) best = { index, score };
  }
  return best;
}

/** Rows below a header that are looked at for a repeat of it (a section's own header row). */
const REPEATED_HEADER_WITHIN = 40;

/**
 * Labels the header leaves blank, taken from a repeat of it further down: a workbook that starts each section with
 * its own header row ("Data | | Answer | Additional Information") may label a column only there. A repeat is a
 * later row with the header's answer label in the same column; only labels that name a role are taken, the first
 * one for each blank column.
 */
function withRepeatedLabels(sheet: RawSheet, headerRow: number, columns: string[]): string[] {
  const answerAt = columns.findIndex((label) => headerRoles(label).answer > 0);
  if (answerAt < 0 || !columns.some((label) => label.trim() === '')) return columns;
  const answerLabel = normalizeLabel(columns[answerAt] ?? '');
  const end = Math.min(sheet.rows.length, headerRow + 1 + REPEATED_HEADER_WITHIN);
  const filled = [...columns];
  for (let r = headerRow + 1; r < end; r += 1) {
    const cells = sheet.rows[r] ?? [];
    if (normalizeLabel(cells[answerAt] ?? '') !== answerLabel) continue;
    filled.forEach((label, c) => {
      const later = cells[c] ?? '';
      if (label.trim() === '' && bestRole(headerRoles(later)) > 0) filled[c] = later;
    });
  }
  return filled;
}

function layoutWithHeader(sheet: RawSheet, headerRow: number): Layout | null {
  const columns = withRepeatedLabels(sheet, headerRow, padColumns([...(sheet.rows[headerRow] ?? [])], sheet));
  const marked = findChoiceColumns(sheet, headerRow);
  const choices = marked?.choices ?? [];
  for (const choice of choices) if (!columns[choice.column]) columns[choice.column] = choice.label;
  const roles = columns.map(headerRoles);
  const dataStart = (marked?.row ?? headerRow) + 1;
  const content = columnContent(sheet, dataStart);

  const questionColumn =
    bestColumn(
      roles,
      (role, column) =>
        role.question > 0 &&
        holdsQuestionText(content[column], roles[column + 1]?.question ? undefined : content[column + 1])
          ? role.question * 1000 + contentScore(content[column])
          : 0,
      () => true,
    ) ?? unlabelledQuestionColumn(roles, content);
  if (questionColumn === null) return null;
  // A choice column labelled "No" is not a number column: the choices are settled before the id is looked for.
  const taken = new Set<number>([questionColumn, ...choices.map((choice) => choice.column)]);
  const { idColumn, sectionColumn } = idAndSectionColumns(roles, content, questionColumn, taken, (role, column) =>
    role.id > 0 && (content[column]?.nonEmpty ?? 0) > 0 ? role.id : 0,
  );

  let answerColumn: number | null;
  if (marked) {
    answerColumn = choices[0]?.column ?? null;
  } else {
    answerColumn = bestColumn(
      roles,
      (role, column) =>
        role.answer * 10 + answerEvidence(content[column]) + (role.answer > 0 ? nearness(column, questionColumn) : 0),
      (c) => !taken.has(c) && (roles[c]?.comments ?? 0) === 0,
    );
  }
  if (answerColumn !== null) taken.add(answerColumn);

  const commentsColumn = bestColumn(
    roles,
    (role, column) => (role.comments > 0 ? role.comments * 10 + nearness(column, answerColumn ?? questionColumn) : 0),
    (c) => !taken.has(c),
  );

  const mapping: Mapping = { sheet: sheet.name, headerRow, questionColumn, answerColumn, commentsColumn, idColumn };
  if (marked) mapping.answerChoiceColumns = choices;
  const subHeaderRow = marked && marked.row > headerRow ? marked.row : null;
  return { mapping, columns: padColumns(columns, sheet), sectionColumn, subHeaderRow };
}

// With only a weak header word ("Description", "Item", "Control"), a table is a questionnaire only if it has
// somewhere to answer or reads like one: a glossary ("Term | Description") or a list of controls is not.
function acceptsLayout(sheet: RawSheet, layout: Layout): boolean {
  const { mapping, columns } = layout;
  const label = columns[mapping.questionColumn] ?? '';
  const strength = headerRoles(label).question;
  if (strength >= STRONG_QUESTION_HEADER) return true;
  if (isNonQuestionSheetName(sheet.name)) return false;
  if (mapping.answerColumn !== null) return true;
  const stats = columnContent(sheet, mapping.headerRow + 1)[mapping.questionColumn];
  return stats !== undefined && stats.questionLike >= Math.max(1, stats.text * 0.3);
}

function layoutWithoutHeader(sheet: RawSheet, options: DetectOptions): Layout | null {
  const content = columnContent(sheet, 0);
  let questionColumn: number | null = null;
  if (options.headerless === 'first-text') {
    questionColumn = content.findIndex((stats) => stats.wordy > 0 && stats.wordy >= stats.nonEmpty / 2);
    if (questionColumn === -1) questionColumn = null;
  } else {
    let best = 0;
    content.forEach((stats, column) => {
      // Mostly questions, not a column of prose that happens to contain one.
      if (stats.questionLike < 2 && !(stats.questionLike === 1 && stats.text <= 2)) return;
      if (stats.questionLike < stats.text * 0.3) return;
      const score = contentScore(stats);
      if (score > best) {
        best = score;
        questionColumn = column;
      }
    });
  }
  if (questionColumn === null) return null;
  const q: number = questionColumn;

  // A row of labels right above the first question is a header after all, one without the words we look for
  // ("# | Text | Reply | Remarks"): it still tells which column takes the answer.
  const firstQuestion = sheet.rows.findIndex((row) => {
    const text = row[q] ?? '';
    return isQuestionLike(text) || (options.headerless === 'first-text' && text.length >= 8);
  });
  const above = firstQuestion > 0 ? (sheet.rows[firstQuestion - 1] ?? []) : [];
  const labels = above.filter((cell) => cell !== '');
  const labelRow = labels.length >= 2 && labels.every((cell) => wordCount(cell) <= 6 && !endsWithQuestionMark(cell));
  if (labelRow) {
    const headerRow = firstQuestion - 1;
    const columns = padColumns([...above], sheet);
    const roles = columns.map(headerRoles);
    const taken = new Set<number>([q]);
    const after = columnContent(sheet, firstQuestion);
    const { idColumn, sectionColumn } = idAndSectionColumns(roles, after, q, taken, (role) => role.id);
    const answerColumn = bestColumn(
      roles,
      (role, column) => role.answer * 10 + answerEvidence(after[column]),
      (c) => !taken.has(c) && (roles[c]?.comments ?? 0) === 0,
    );
    if (answerColumn !== null) taken.add(answerColumn);
    const commentsColumn = bestColumn(
      roles,
      (role) => role.comments,
      (c) => !taken.has(c),
    );
    return {
      mapping: { sheet: sheet.name, headerRow, questionColumn: q, answerColumn, commentsColumn, idColumn },
      columns,
      sectionColumn,
      subHeaderRow: null,
    };
  }

  const idColumn = idColumnByContent(content, q);
  const answerColumn = bestColumn(
    content.map(() => ({ question: 0, answer: 0, comments: 0, id: 0, section: 0 })),
    (_role, column) => (column === q || column === idColumn ? 0 : answerEvidence(content[column])),
    () => true,
  );
  return {
    mapping: { sheet: sheet.name, headerRow: -1, questionColumn: q, answerColumn, commentsColumn: null, idColumn },
    columns: padColumns([], sheet),
    sectionColumn: null,
    subHeaderRow: null,
  };
}

/**
 * Whether a column labelled as the questions' holds them. A label over the reference column ("Required Questions"
 * above "REQU-01", its questions in the unlabelled column beside) names the table, not the column: a column of
 * control ids with no question among its few words, next to a column of questions, is not the question column.
 */
function holdsQuestionText(stats: ColumnStats | undefined, beside: ColumnStats | undefined): boolean {
  if (!stats || stats.text === 0) return false;
  const mostlyIds = stats.controlIds >= stats.nonEmpty * 0.6 && stats.questionLike === 0;
  const questionsBeside = beside !== undefined && beside.questionLike >= Math.max(1, beside.text * 0.3);
  return !(mostlyIds && questionsBeside);
}

/**
 * A header that names the answer but not the question column: the column without a role whose cells read most
 * like questions, left of the answer column.
 */
function unlabelledQuestionColumn(roles: readonly RoleScores[], content: readonly ColumnStats[]): number | null {
  const answerAt = roles.findIndex((role) => role.answer > 0);
  return bestColumn(
    roles,
    (role, column) => {
      const stats = content[column];
      if (bestRole(role) > 0 || !stats || stats.text === 0) return 0;
      if (stats.questionLike < Math.max(1, stats.text * 0.3)) return 0;
      return contentScore(stats);
    },
    (column) => answerAt < 0 || column < answerAt,
  );
}

/** Small tie-breaker favouring columns close to (and right of) another. */
function nearness(column: number, anchor: number): number {
  const distance = column - anchor;
  return distance > 0 ? Math.max(0, 5 - distance) : Math.max(0, 3 + distance);
}

/**
 * The id column (the best one `idScore` finds among the labels, else the leftmost column of control ids) and the
 * section column, from the columns the question does not take; both are added to `taken`.
 */
function idAndSectionColumns(
  roles: readonly RoleScores[],
  content: readonly ColumnStats[],
  questionColumn: number,
  taken: Set<number>,
  idScore: (role: RoleScores, column: number) => number,
): { idColumn: number | null; sectionColumn: number | null } {
  const idColumn = bestColumn(roles, idScore, (c) => !taken.has(c)) ?? idColumnByContent(content, questionColumn);
  if (idColumn !== null) taken.add(idColumn);
  const sectionColumn = bestColumn(
    roles,
    (role) => role.section,
    (c) => !taken.has(c),
  );
  if (sectionColumn !== null) taken.add(sectionColumn);
  return { idColumn, sectionColumn };
}

function bestColumn(
  roles: readonly RoleScores[],
  score: (role: RoleScores, column: number) => number,
  allowed: (column: number) => boolean,
): number | null {
  let best: number | null = null;
  let bestScore = 0;
  roles.forEach((role, column) => {
    if (!allowed(column)) return;
    const value = score(role, column);
    if (value > bestScore) {
      bestScore = value;
      best = column;
    }
  });
  return best;
}

/** Header labels for every column the sheet uses, so indexes in a mapping always have a label ('' if none). */
function padColumns(columns: string[], sheet: RawSheet): string[] {
  const width = Math.max(columns.length, columnCount(sheet));
  return Array.from({ length: width }, (_, index) => columns[index] ?? '');
}
