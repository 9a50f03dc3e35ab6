import type { PreviewResponse, SheetMapping } from '../../../common/schemas/assessments';

type PreviewSheet = PreviewResponse['sheets'][number];

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
  const used = () => [next.questionColumn, next.answerColumn, next.commentsColumn, next.idColumn];
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
          ...current,
          questionColumn: column,
          answerColumn: unless(current.answerColumn, column),
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

/** The mapping with `sheet`'s answer column changed; null means "add a Response column next to the questions". */
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
            ...m,
            answerColumn: column,
            commentsColumn: column === null ? m.commentsColumn : unless(m.commentsColumn, column),
            idColumn: column === null ? m.idColumn : unless(m.idColumn, column),
          },
          original,
        )
      : m,
  );
}
