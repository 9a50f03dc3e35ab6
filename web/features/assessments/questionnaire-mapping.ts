import type { PreviewResponse, SheetMapping } from '../../../common/schemas/assessments';

type PreviewSheet = PreviewResponse['sheets'][number];

/** A sheet answered by marks has 2 to 10 answer-choice columns (Yes / No / N/A…); the server refuses others. */
export const MIN_CHOICE_COLUMNS = 2;
export const MAX_CHOICE_COLUMNS = 10;

/** Spreadsheet column letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** 'C · Question' for a headed column, 'Column C' for one without a header. */
export function columnLabel(columns: readonly string[], index: number): string {
  const letter = columnLetter(index);
  const header = columns[index]?.trim() ?? '';
  if (!header || header === `Column ${letter}`) return `Column ${letter}`;
  return `${letter} · ${header}`;
}

/** `current`, or null when it is the column taken for another role. */
function unless(current: number | null, taken: number): number | null {
  return current === taken ? null : current;
}

/**
 * `mapping` with `column` no longer an answer: not its answer column, nor one of its choice columns; fewer than
 * MIN_CHOICE_COLUMNS choices left are no choice at all, and the sheet goes back to one answer column, none yet.
 */
function withoutChoice(mapping: SheetMapping, column: number): SheetMapping {
  const { answerChoiceColumns: choices, ...rest } = mapping;
  if (!choices?.length) return { ...rest, answerColumn: unless(mapping.answerColumn, column) };
  const left = choices.filter((choice) => choice.column !== column);
  if (left.length < MIN_CHOICE_COLUMNS) return { ...rest, answerColumn: null };
  return { ...rest, answerColumn: left[0]?.column ?? null, answerChoiceColumns: left };
}

function withoutChoices(mapping: SheetMapping): SheetMapping {
  const { answerChoiceColumns: _choices, ...rest } = mapping;
  return rest;
}

/** The mapping the preview applied: one entry per sheet that has questions. */
export function mappingOf(preview: PreviewResponse): SheetMapping[] {
  return preview.sheets.flatMap((sheet) => (sheet.mapping ? [sheet.mapping] : []));
}

/**
 * Gives back the comments and id columns detection found when the user's last change freed them again (an answer
 * column moved onto Comments and back). The answer column is the user's to choose, "none" included, so it stays.
 */
function restoreDetected(next: SheetMapping, detected: SheetMapping | undefined): SheetMapping {
  if (!detected) return next;
  const used = () => [
    next.questionColumn,
    next.answerColumn,
    next.commentsColumn,
    next.idColumn,
    ...(next.answerChoiceColumns ?? []).map((choice) => choice.column),
  ];
  const restored = { ...next };
  if (
    restored.commentsColumn === null &&
    detected.commentsColumn !== null &&
    !used().includes(detected.commentsColumn)
  ) {
    restored.commentsColumn = detected.commentsColumn;
  }
  if (restored.idColumn === null && detected.idColumn !== null && !used().includes(detected.idColumn)) {
    restored.idColumn = detected.idColumn;
  }
  return restored;
}

/**
 * The mapping with `sheet`'s question column changed; null leaves the sheet out of the import. A sheet brought back
 * starts from what detection found on it, or else is read from its first row, as rows of questions without a header.
 * `detected` is the mapping of the file's first preview, before the user changed anything.
 */
export function withQuestionColumn(
  mapping: readonly SheetMapping[],
  sheets: readonly PreviewSheet[],
  sheet: PreviewSheet,
  column: number | null,
  detected: readonly SheetMapping[],
): SheetMapping[] {
  const others = mapping.filter((m) => m.sheet !== sheet.name);
  if (column === null) return others;
  const original = detected.find((m) => m.sheet === sheet.name);
  const current = mapping.find((m) => m.sheet === sheet.name) ?? sheet.mapping ?? original;
  // The server refuses one column in two roles: whatever the question column took over is given up.
  const next: SheetMapping = current
    ? restoreDetected(
        {
          ...withoutChoice(current, column),
          questionColumn: column,
          commentsColumn: unless(current.commentsColumn, column),
          idColumn: unless(current.idColumn, column),
        },
        original,
      )
    : {
        sheet: sheet.name,
        headerRow: -1,
        questionColumn: column,
        answerColumn: null,
        commentsColumn: null,
        idColumn: null,
      };
  // In workbook order, so the questions of a sheet brought back keep their place.
  const order = sheets.map((s) => s.name);
  return [...others, next].sort((a, b) => order.indexOf(a.sheet) - order.indexOf(b.sheet));
}

/**
 * The mapping with `sheet`'s answer column changed; null means "add a Response column next to the questions". One
 * answer column means no answer-choice columns.
 */
export function withAnswerColumn(
  mapping: readonly SheetMapping[],
  sheetName: string,
  column: number | null,
  detected: readonly SheetMapping[],
): SheetMapping[] {
  const original = detected.find((m) => m.sheet === sheetName);
  return mapping.map((m) =>
    m.sheet === sheetName
      ? restoreDetected(
          {
            ...withoutChoices(m),
            answerColumn: column,
            commentsColumn: column === null ? m.commentsColumn : unless(m.commentsColumn, column),
            idColumn: column === null ? m.idColumn : unless(m.idColumn, column),
          },
          original,
        )
      : m,
  );
}

/**
 * The mapping with `sheetName`'s comments column changed; null: the filled file adds a Comments column where it needs
 * one. A column the ids were read from is given up by them.
 */
export function withCommentsColumn(
  mapping: readonly SheetMapping[],
  sheetName: string,
  column: number | null,
): SheetMapping[] {
  return mapping.map((m) =>
    m.sheet === sheetName
      ? { ...m, commentsColumn: column, idColumn: column === null ? m.idColumn : unless(m.idColumn, column) }
      : m,
  );
}

/** The mapping with `sheetName`'s id column changed; null: the questions carry no reference of their own. */
export function withIdColumn(
  mapping: readonly SheetMapping[],
  sheetName: string,
  column: number | null,
): SheetMapping[] {
  return mapping.map((m) =>
    m.sheet === sheetName
      ? {
          ...m,
          idColumn: column,
          commentsColumn: column === null ? m.commentsColumn : unless(m.commentsColumn, column),
        }
      : m,
  );
}

/** A change to a sheet's rows, 0-based as the mapping holds them; null clears the first or last question row. */
export interface RowsChange {
  headerRow?: number;
  firstRow?: number | null;
  lastRow?: number | null;
}

/**
 * The mapping with `sheetName`'s header row or first and last question rows changed. Without a first row the
 * questions start under the header again; without a last row they run to the end of the sheet.
 */
export function withRows(mapping: readonly SheetMapping[], sheetName: string, change: RowsChange): SheetMapping[] {
  return mapping.map((m) => {
    if (m.sheet !== sheetName) return m;
    const { firstRow, lastRow, ...rest } = m;
    const next: SheetMapping = { ...rest, headerRow: change.headerRow ?? m.headerRow };
    const first = change.firstRow === undefined ? firstRow : change.firstRow;
    const last = change.lastRow === undefined ? lastRow : change.lastRow;
    if (first !== null && first !== undefined) next.firstRow = first;
    if (last !== null && last !== undefined) next.lastRow = last;
    return next;
  });
}

/** What a column stands for as an answer choice, until the user says otherwise: its header, else its letter. */
export function defaultChoiceLabel(columns: readonly string[], index: number): string {
  return columns[index]?.trim() || `Column ${columnLetter(index)}`;
}

/**
 * The mapping with `sheetName` answered by a mark under one of `choiceColumns` (CAIQ v3's Yes / No / N/A), in sheet
 * order and at most MAX_CHOICE_COLUMNS; an empty list switches it back to one answer column. A column keeps the label
 * and mark it had; a new one is labelled by its header (`columns`). The question column is never a choice, and the
 * comments or id column a choice takes over is given up, as the server refuses one column in two roles.
 */
export function withAnswerChoiceColumns(
  mapping: readonly SheetMapping[],
  sheetName: string,
  choiceColumns: readonly number[],
  columns: readonly string[],
  detected: readonly SheetMapping[],
): SheetMapping[] {
  const original = detected.find((m) => m.sheet === sheetName);
  return mapping.map((m) => {
    if (m.sheet !== sheetName) return m;
    const { answerChoiceColumns: previous = [], ...rest } = m;
    const picked = [...new Set(choiceColumns)]
      .filter((column) => column !== m.questionColumn)
      .sort((a, b) => a - b)
      .slice(0, MAX_CHOICE_COLUMNS);
    if (picked.length === 0) {
      // Back to one answer column: detection's, when it found one rather than marks and it is free, else none.
      const found = original && !original.answerChoiceColumns?.length ? original.answerColumn : null;
      const free = found !== null && ![m.questionColumn, m.commentsColumn, m.idColumn].includes(found);
      return restoreDetected({ ...rest, answerColumn: free ? found : null }, original);
    }
    const choices = picked.map(
      (column) =>
        previous.find((choice) => choice.column === column) ?? { column, label: defaultChoiceLabel(columns, column) },
    );
    const taken = new Set(picked);
    return {
      ...rest,
      // As detection has it: the answer column of a sheet answered by marks is its first choice column.
      answerColumn: picked[0] ?? null,
      commentsColumn: m.commentsColumn !== null && taken.has(m.commentsColumn) ? null : m.commentsColumn,
      idColumn: m.idColumn !== null && taken.has(m.idColumn) ? null : m.idColumn,
      answerChoiceColumns: choices,
    };
  });
}

/**
 * The mapping with the label of one of `sheetName`'s choice columns changed: the answer it stands for, which decides
 * where a Yes, No or N/A is marked. A blank label gives the column back its header's.
 */
export function withChoiceLabel(
  mapping: readonly SheetMapping[],
  sheetName: string,
  column: number,
  label: string,
  columns: readonly string[],
): SheetMapping[] {
  const text = label.trim() || defaultChoiceLabel(columns, column);
  return mapping.map((m) =>
    m.sheet === sheetName && m.answerChoiceColumns
      ? {
          ...m,
          answerChoiceColumns: m.answerChoiceColumns.map((choice) =>
            choice.column === column ? { ...choice, label: text.slice(0, 200) } : choice,
          ),
        }
      : m,
  );
}
