import { MAX_COLUMNS, columnLetters } from './cell-refs';
import { columnCount } from './column-stats';
import { type DetectOptions, type Layout, detectLayout, layoutFromMapping } from './detect';
import { extractQuestions } from './extract-questions';
import { isEvaluationSheet } from './formula-cells';
import { MAX_QUESTIONS, invalidMapping, noQuestions, tooManyQuestions } from './messages';
import { csvSheet, readCsv } from './read-csv';
import { readDocx } from './read-docx';
import { readXls } from './read-xls';
import { readXlsx } from './read-xlsx';
import { judgeSheets } from './select-sheets';
import { sniffFormat } from './sniff-format';
import { sheetRowsProblem } from '../../../common/schemas/assessments';
import {
  type AnswerChoiceColumn,
  type Intake,
  type IntakeSheet,
  type Mapping,
  type QuestionItem,
  QuestionnaireError,
  type QuestionnaireFormat,
  type QuestionnaireSheet,
  type RawSheet,
} from './types';

/**
 * Reads a questionnaire upload and finds its questions. The format comes from the bytes (a ".xlsx" that is really a
 * PDF is refused; an ".xls" that is really .xlsx is read); ZIP-based files pass the zip guard before any parser
 * inflates them. Without `mapping`, each sheet's columns are detected (visible sheets first; hidden ones only when
 * no visible sheet holds questions). With `mapping` (from a preview where the user changed the columns), exactly the
 * sheets it lists are read, with those columns. The size of the upload itself is the caller's to limit.
 *
 * Throws QuestionnaireError: 400 for an empty file, the wrong format, a bad mapping or no questions; 413 for more
 * than 5,000 questions or a file that expands too much; 422 for a damaged or password-protected file.
 */
export async function readQuestionnaire(bytes: Uint8Array, fileName: string, mapping?: Mapping[]): Promise<Intake> {
  return intakeOf(await readQuestionnaireFile(bytes, fileName), mapping);
}

/** A questionnaire file parsed into sheets, not yet understood: read once, then with one mapping or another. */
export type QuestionnaireFile = { format: QuestionnaireFormat; sheets: RawSheet[]; notes: string[] };

/** Parses an upload into its sheets (the format from the bytes, the zip guard first); throws as readQuestionnaire. */
export function readQuestionnaireFile(bytes: Uint8Array, fileName: string): Promise<QuestionnaireFile> {
  return readSheets(bytes, fileName);
}

/** The questions of a parsed file: with `mapping` exactly its sheets and columns, else as detected (readQuestionnaire). */
export function intakeOf(file: QuestionnaireFile, mapping?: Mapping[]): Intake {
  return buildIntake(file.format, file.sheets, file.notes, mapping, { headerless: 'question-like' });
}

/**
 * A mapping remembered from another file of the same layout, as it fits this one: a last question row past this
 * sheet's end reads to the end. Null when it does not fit (a sheet missing, a column outside a sheet): a remembered
 * layout is then passed over rather than refused like a person's choice.
 */
export function fittedMapping(sheets: readonly RawSheet[], mapping: readonly Mapping[]): Mapping[] | null {
  const fitted = mapping.map((m) => {
    const rows = sheets.find((sheet) => sheet.name === m.sheet)?.rows.length ?? 0;
    if (m.lastRow === undefined || m.lastRow < rows) return m;
    const { lastRow: _pastTheEnd, ...rest } = m;
    return rest;
  });
  try {
    return [...validateMappings(sheets, fitted).values()];
  } catch (err) {
    if (err instanceof QuestionnaireError) return null;
    throw err;
  }
}

/**
 * The specification's `POST /api/assessments/import-csv`: CSV text whose header is optional, one question per row. With a
 * recognisable header the question column is used; without one, the first column holding text.
 */
export function csvToIntake(csvContent: string, mapping?: Mapping[]): Intake {
  return buildIntake('csv', [csvSheet(csvContent)], [], mapping, { headerless: 'first-text' });
}

/**
 * Every sheet of a questionnaire as rows of display text, with the header row and labels detection found: what a
 * preview shows when the user wants to see the sheet itself rather than the questions.
 */
export async function readQuestionnaireSheets(
  bytes: Uint8Array,
  fileName: string,
): Promise<{ format: QuestionnaireFormat; sheets: QuestionnaireSheet[] }> {
  const { format, sheets } = await readSheets(bytes, fileName);
  return {
    format,
    sheets: sheets.map((sheet) => {
      const layout = detectLayout(sheet);
      const headerRow = layout && layout.mapping.headerRow >= 0 ? layout.mapping.headerRow : null;
      return {
        name: sheet.name,
        hidden: sheet.hidden,
        rows: sheet.rows,
        headerRow,
        columns: layout?.columns ?? blankColumns(sheet),
      };
    }),
  };
}

async function readSheets(
  bytes: Uint8Array,
  fileName: string,
): Promise<{ format: QuestionnaireFormat; sheets: RawSheet[]; notes: string[] }> {
  const sniffed = await sniffFormat(bytes, fileName);
  switch (sniffed.format) {
    case 'xlsx':
      return { format: 'xlsx', ...readXlsx(bytes) };
    case 'xls':
      return { format: 'xls', ...readXls(sniffed.text ?? bytes) };
    case 'docx':
      return { format: 'docx', ...(await readDocx(bytes)) };
    case 'csv':
      return { format: 'csv', ...readCsv(bytes) };
  }
}

const EVALUATION_SHEET =
  'its answer cells are formulas (scores, answers looked up from another sheet): it is not one to answer';

type SheetResult = { sheet: RawSheet; layout: Layout | null; questions: QuestionItem[]; skipped: string | null };

function buildIntake(
  format: QuestionnaireFormat,
  sheets: readonly RawSheet[],
  readNotes: readonly string[],
  mapping: Mapping[] | undefined,
  options: DetectOptions,
): Intake {
  const notes = [...readNotes];
  const results: SheetResult[] = sheets.map((sheet) => ({ sheet, layout: null, questions: [], skipped: null }));
  const run = (result: SheetResult, layout: Layout | null, chosen: boolean) => {
    result.layout = layout;
    if (!layout) return;
    const extracted = extractQuestions(result.sheet, layout, { everyRow: options.headerless === 'first-text' });
    // A sheet the user picked is theirs to read; a detected one whose answers the workbook computes is a scorecard.
    if (!chosen && isEvaluationSheet(extracted.questions.length, extracted.computed)) {
      result.skipped = EVALUATION_SHEET;
      return;
    }
    result.questions = extracted.questions;
    notes.push(...extracted.notes);
  };

  if (mapping && mapping.length > 0) {
    const chosen = validateMappings(sheets, mapping);
    for (const result of results) {
      const given = chosen.get(result.sheet.name);
      if (given) run(result, layoutFromMapping(result.sheet, given), true);
    }
  } else {
    // Hidden sheets usually hold the dropdown lists; they are searched only when the visible ones hold nothing.
    for (const result of results) if (!result.sheet.hidden) run(result, detectLayout(result.sheet, options), false);
    if (results.every((result) => result.questions.length === 0)) {
      for (const result of results) if (result.sheet.hidden) run(result, detectLayout(result.sheet, options), false);
    }
    judgeSheets(results).forEach((why, index) => {
      const result = results[index];
      if (!result || why === null) return;
      result.skipped = why;
      result.questions = [];
    });
  }

  const questions = results.flatMap((result) => result.questions);
  if (questions.length > MAX_QUESTIONS) throw tooManyQuestions(questions.length);
  if (questions.length === 0) throw noQuestions();

  const intakeSheets: IntakeSheet[] = results.map(({ sheet, layout, questions: found, skipped }) => ({
    name: sheet.name,
    hidden: sheet.hidden,
    rowCount: sheet.rows.length,
    columns: layout?.columns ?? blankColumns(sheet),
    mapping: layout && found.length > 0 ? layout.mapping : null,
    questionCount: found.length,
    skipped,
  }));
  const mappings = intakeSheets.flatMap((sheet) => (sheet.mapping ? [sheet.mapping] : []));
  return { format, sheets: intakeSheets, mappings, questions, notes };
}

function blankColumns(sheet: RawSheet): string[] {
  return Array.from({ length: columnCount(sheet) }, () => '');
}

/** Checks a user's mapping against the sheets; every problem is a 400 naming the sheet and what is wrong. */
function validateMappings(sheets: readonly RawSheet[], mappings: readonly Mapping[]): Map<string, Mapping> {
  const chosen = new Map<string, Mapping>();
  for (const mapping of mappings) {
    const name = typeof mapping.sheet === 'string' ? mapping.sheet : '';
    const sheet = sheets.find((candidate) => candidate.name === name);
    if (!sheet) throw invalidMapping(name, 'the file has no sheet with that name');
    if (chosen.has(name)) throw invalidMapping(name, 'the sheet is listed twice');
    const width = columnCount(sheet);
    if (!Number.isInteger(mapping.headerRow) || mapping.headerRow < -1 || mapping.headerRow >= sheet.rows.length) {
      throw invalidMapping(name, 'the header row is outside the sheet');
    }
    for (const [which, row] of [
      ['first', mapping.firstRow],
      ['last', mapping.lastRow],
    ] as const) {
      if (row !== undefined && (!Number.isInteger(row) || row < 0 || row >= sheet.rows.length)) {
        throw invalidMapping(name, `the ${which} question row is outside the sheet`);
      }
    }
    const rowsProblem = sheetRowsProblem(mapping);
    if (rowsProblem) throw invalidMapping(name, rowsProblem);
    if (!Number.isInteger(mapping.questionColumn) || mapping.questionColumn < 0 || mapping.questionColumn >= width) {
      throw invalidMapping(name, 'the question column is outside the sheet');
    }
    const others = [
      ['answer', mapping.answerColumn],
      ['comments', mapping.commentsColumn],
      ['id', mapping.idColumn],
    ] as const;
    const used = new Set<number>([mapping.questionColumn]);
    for (const [role, column] of others) {
      if (column === null) continue;
      // The answer may go to a new column right of the table, so only the sheet's hard limit applies to it; the
      // comments and ids already in the file are read from its own columns.
      const limit = role === 'answer' ? MAX_COLUMNS : width;
      if (!Number.isInteger(column) || column < 0 || column >= limit) {
        throw invalidMapping(name, `the ${role} column is outside the sheet`);
      }
      if (used.has(column)) throw invalidMapping(name, `the ${role} column is also used for another purpose`);
      used.add(column);
    }
    const choices = validateChoices(name, mapping, width);
    chosen.set(name, {
      sheet: name,
      headerRow: mapping.headerRow,
      questionColumn: mapping.questionColumn,
      answerColumn: mapping.answerColumn,
      commentsColumn: mapping.commentsColumn,
      idColumn: mapping.idColumn,
      ...(mapping.firstRow !== undefined ? { firstRow: mapping.firstRow } : {}),
      ...(mapping.lastRow !== undefined ? { lastRow: mapping.lastRow } : {}),
      ...(choices ? { answerChoiceColumns: choices } : {}),
    });
  }
  return chosen;
}

// A mark is a tick, a cross or a word ("Yes"), never a sentence.
const MAX_MARK_CHARS = 20;

// A row answered by a mark picks one of several columns (Yes / No / N/A); one column alone offers no choice.
const MIN_CHOICES = 2;
const MAX_CHOICES = 10;

/**
 * A user's answer-choice columns, checked against the sheet: 2 to 10 of them, inside the sheet (a mark is made under
 * a column the customer's file has, never one added), none also the question, comments or id column.
 */
function validateChoices(sheet: string, mapping: Mapping, width: number): AnswerChoiceColumn[] | null {
  const choices: unknown = mapping.answerChoiceColumns;
  if (choices === undefined || choices === null) return null;
  if (!Array.isArray(choices)) throw invalidMapping(sheet, 'the answer choices must be a list');
  if (choices.length === 0) return null;
  if (choices.length < MIN_CHOICES || choices.length > MAX_CHOICES) {
    throw invalidMapping(
      sheet,
      `a sheet answered by a mark needs ${String(MIN_CHOICES)} to ${String(MAX_CHOICES)} answer choice columns, not ${String(choices.length)}`,
    );
  }
  // The answer column is the first choice column itself; the other roles must stay apart from all of them.
  const others = new Set([mapping.questionColumn, mapping.commentsColumn, mapping.idColumn]);
  const seen = new Set<number>();
  return choices.map((choice: unknown) => {
    const { column, label, mark } = (choice ?? {}) as { column?: unknown; label?: unknown; mark?: unknown };
    if (typeof column !== 'number' || !Number.isInteger(column) || column < 0 || column >= width) {
      throw invalidMapping(sheet, 'an answer choice column is outside the sheet');
    }
    if (column === mapping.questionColumn) {
      throw invalidMapping(sheet, `answer choice column ${columnLetters(column)} is also the question column`);
    }
    if (typeof label !== 'string' || label.trim() === '') throw invalidMapping(sheet, 'an answer choice has no label');
    if (seen.has(column) || others.has(column)) {
      throw invalidMapping(sheet, 'an answer choice column is also used for another purpose');
    }
    if (mark !== undefined && (typeof mark !== 'string' || mark.trim() === '' || mark.length > MAX_MARK_CHARS)) {
      throw invalidMapping(sheet, `an answer choice's mark must be a text of 1 to ${MAX_MARK_CHARS} characters`);
    }
    seen.add(column);
    return { column, label: label.trim(), ...(typeof mark === 'string' ? { mark: mark.trim() } : {}) };
  });
}
