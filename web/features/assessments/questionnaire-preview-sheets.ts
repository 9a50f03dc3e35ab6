import { ADDED_COLUMN_HEADERS } from '../../../common/constants';
import type { PreviewResponse, SheetMapping } from '../../../common/schemas/assessments';
import { formatNumber } from '../../lib/format';
import { columnLabel } from './questionnaire-mapping';

type PreviewSheet = PreviewResponse['sheets'][number];
type Format = PreviewResponse['format'];

/**
 * Why a sheet is not imported. One word for the state ("not imported") and one of three reasons, so the preview never
 * mixes "skipped", "ignored" and "not imported" for what the user cannot tell apart.
 */
export type NotImportedReason = 'no-questions' | 'not-for-answering' | 'left-out';

export type SheetStatus =
  | { imported: true }
  | {
      imported: false;
      reason: NotImportedReason;
      /** A sentence for the sheet's card. */
      explanation: string;
    };

/** The reasons as the preview names them, in a card and in the summary of the sheets not imported. */
export const NOT_IMPORTED_REASONS: Record<NotImportedReason, string> = {
  'no-questions': 'without questions',
  'not-for-answering': 'not for answering',
  'left-out': 'left out by you',
};

/** What the preview knows beyond the current response: detection's first reading, and the user's columns if any. */
export interface SheetContext {
  /** The mapping of the file's first preview, before the user changed anything. */
  detected: readonly SheetMapping[];
  /** Detection's reason for each sheet it judged not for answering, by name (a user's mapping is not judged). */
  detectedSkips: Readonly<Record<string, string>>;
  /** The columns the user chose; undefined while detection's stand. */
  chosen?: readonly SheetMapping[];
}

/**
 * Whether a sheet is imported, and if not, why: detection judged its questions not for answering (a reference,
 * a copy, a scoring sheet), the user left out a sheet detection would have imported, or it has no questions (none
 * found, or none in the column the user chose).
 */
export function sheetStatus(sheet: PreviewSheet, context: SheetContext): SheetStatus {
  if (sheet.mapping) return { imported: true };
  const judged = sheet.skipped ?? context.detectedSkips[sheet.name] ?? null;
  if (judged !== null) {
    // The server's reason is a clause ('it repeats the questions of "X"') that completes the sentence.
    return {
      imported: false,
      reason: 'not-for-answering',
      explanation: `Questions found, but not imported because ${judged.trim().replace(/[.!?]$/, '')}.`,
    };
  }
  const asked = (mapping: readonly SheetMapping[] | undefined) => mapping?.some((m) => m.sheet === sheet.name);
  if (asked(context.detected) && !asked(context.chosen ?? context.detected)) {
    return { imported: false, reason: 'left-out', explanation: 'You chose not to import it.' };
  }
  return {
    imported: false,
    reason: 'no-questions',
    explanation: asked(context.chosen) ? 'No questions found in the column you chose.' : 'No questions found on it.',
  };
}

export interface ArrangedSheet {
  sheet: PreviewSheet;
  status: SheetStatus;
}

/**
 * The sheets in the order that puts the questionnaire first: the imported ones, most questions first, then those
 * the user left out (they stay at hand to bring back); `others` are the rest, for a collapsed group, the sheets
 * with questions not for answering before those with none. Workbook order breaks ties.
 */
export function arrangeSheets(
  sheets: readonly PreviewSheet[],
  context: SheetContext,
): { main: ArrangedSheet[]; others: ArrangedSheet[] } {
  const arranged = sheets.map((sheet, index) => ({ sheet, status: sheetStatus(sheet, context), index }));
  const rank = ({ sheet, status }: (typeof arranged)[number]): number => {
    if (status.imported) return -sheet.questionCount;
    return { 'left-out': 1, 'not-for-answering': 2, 'no-questions': 3 }[status.reason];
  };
  const sorted = [...arranged].sort((a, b) => rank(a) - rank(b) || a.index - b.index);
  const main = sorted.filter((a) => a.status.imported || a.status.reason === 'left-out');
  const others = sorted.filter((a) => !main.includes(a));
  return {
    main: main.map(({ sheet, status }) => ({ sheet, status })),
    others: others.map(({ sheet, status }) => ({ sheet, status })),
  };
}

function plural(count: number, one: string, many: string): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/**
 * '12 sheets not imported: 4 not for answering, 8 without questions', reasons in the order the sheets are listed;
 * '1 sheet not imported (without questions)' when there is one reason.
 */
export function notImportedSummary(others: readonly ArrangedSheet[], unit: 'sheet' | 'table'): string {
  const counts = new Map<NotImportedReason, number>();
  for (const { status } of others) {
    if (!status.imported) counts.set(status.reason, (counts.get(status.reason) ?? 0) + 1);
  }
  const head = `${plural(others.length, unit, `${unit}s`)} not imported`;
  const reasons = [...counts];
  const [only] = reasons;
  if (!only) return head;
  if (reasons.length === 1) return `${head} (${NOT_IMPORTED_REASONS[only[0]]})`;
  return `${head}: ${reasons.map(([reason, count]) => `${formatNumber(count)} ${NOT_IMPORTED_REASONS[reason]}`).join(', ')}`;
}

/** One column the filled-in file writes to, and what goes there. */
export interface WrittenColumn {
  /** 'D · Additional Information', 'Column D', or 'New Response column' for one the export adds. */
  label: string;
  content: string;
}

/**
 * Every column of an imported sheet the filled-in file writes to, as the export does it: the answer column (a value
 * of its dropdown where the cell has one, the answer otherwise), the comments column that then takes the full
 * answer, or the columns marked under the chosen choice and the column taking the text. A workbook or CSV gets a
 * new column where the sheet has none; a Word table never does. `note` says when a Word table cannot be filled.
 */
export function writtenColumns(sheet: PreviewSheet, format: Format): { columns: WrittenColumn[]; note: string | null } {
  const mapping = sheet.mapping;
  if (!mapping) return { columns: [], note: null };
  const addsColumns = format !== 'docx';
  const named = (index: number) => columnLabel(sheet.columns, index);
  const added = (header: string) => `New ${header} column`;
  const noWordColumn =
    'A Word table gets no new column: without one to take the answers, this file cannot come back filled in.';

  const choices = mapping.answerChoiceColumns ?? [];
  if (choices.length > 0) {
    const marks = [...new Set(choices.map((choice) => choice.mark ?? 'X'))];
    const columns: WrittenColumn[] = [
      {
        label: choices.map((choice) => named(choice.column)).join(', '),
        content: `${marks.map((mark) => `“${mark}”`).join(' or ')} under the chosen answer`,
      },
    ];
    if (mapping.commentsColumn !== null) columns.push({ label: named(mapping.commentsColumn), content: 'The answer' });
    else if (addsColumns) columns.push({ label: added(ADDED_COLUMN_HEADERS.response), content: 'The answer' });
    else return { columns: [], note: noWordColumn };
    return { columns, note: null };
  }

  if (mapping.answerColumn === null) {
    if (!addsColumns) return { columns: [], note: noWordColumn };
    return { columns: [{ label: added(ADDED_COLUMN_HEADERS.response), content: 'The answer' }], note: null };
  }
  // A dropdown cell takes a value of its list; the full answer then needs a comments column, which a workbook adds
  // when the sheet has none. A Word table without one keeps the whole answer in the answer cell.
  const dropdowns = sheet.dropdownQuestions;
  const comments =
    dropdowns === 0
      ? null
      : mapping.commentsColumn !== null
        ? named(mapping.commentsColumn)
        : format === 'xlsx' || format === 'xls'
          ? added(ADDED_COLUMN_HEADERS.comments)
          : null;
  if (comments === null) {
    return { columns: [{ label: named(mapping.answerColumn), content: 'The answer' }], note: null };
  }
  const every = dropdowns >= sheet.questionCount;
  return {
    columns: [
      {
        label: named(mapping.answerColumn),
        content: every
          ? 'A value from its dropdown list'
          : 'A value from its dropdown list; the answer itself where a row has no list',
      },
      { label: comments, content: every ? 'The full answer' : 'The full answer, on rows with a dropdown' },
    ],
    note: null,
  };
}
