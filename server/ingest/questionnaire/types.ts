import { AppError } from '../../errors';

/** The formats a questionnaire can arrive in, decided from the bytes (never from the name alone). */
export type QuestionnaireFormat = 'csv' | 'xlsx' | 'xls' | 'docx';

/** Why a questionnaire cannot be read; also the `code` the HTTP error handler sends. */
export type QuestionnaireErrorCode =
  | 'empty'
  | 'no_questions'
  | 'too_many_questions'
  | 'too_large'
  | 'unsupported_type'
  | 'encrypted'
  | 'corrupt'
  | 'invalid_mapping';

/**
 * A questionnaire that cannot be read, with a sentence the user can act on. It is an AppError so the HTTP error
 * handler sends it as `{error, code}` with its status (400, 413 or 422); nothing else needs translating it.
 */
export class QuestionnaireError extends AppError {
  constructor(
    status: 400 | 413 | 422,
    readonly reason: QuestionnaireErrorCode,
    message: string,
    options?: { cause?: unknown; details?: unknown },
  ) {
    super(status, reason, message, options?.details);
    this.name = 'QuestionnaireError';
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * One sheet (or Word table) as the user sees it: every row, each cell's display text (a formula's cached result,
 * rich text flattened, dates as ISO), with cells covered by a merge left empty so a value is never counted twice.
 */
export type QuestionnaireSheet = {
  name: string;
  hidden: boolean;
  rows: string[][];
  /** 0-based index into rows, or null for a sheet with no header row (one question per row). */
  headerRow: number | null;
  /** Header labels by column; empty strings where a column has none. */
  columns: string[];
};

/** Everything a reader knows about a sheet beyond its text; the detector uses it, the caller never sees it. */
export type SheetExtras = {
  /** Merged ranges as 0-based inclusive bounds. */
  merges: CellRange[];
  /** Dropdown lists, already resolved to their values. Kept as ranges: a whole-column dropdown is a million cells. */
  validations: ListValidation[];
  /**
   * Cells holding a formula (their text is the cached result), as formulaKey(row, column); absent for formats
   * without formulas. An answer cell the workbook computes is not the customer's to fill in.
   */
  formulas?: ReadonlySet<number>;
};

export type ListValidation = { ranges: CellRange[]; values: string[] };

export type CellRange = { top: number; left: number; bottom: number; right: number };

/** A sheet as a reader returns it. */
export type RawSheet = { name: string; hidden: boolean; rows: string[][] } & SheetExtras;

/**
 * Which columns of a sheet hold what. Indexes are 0-based: headerRow indexes the sheet's rows (-1 when the sheet has
 * no header row and every row may be a question); columns index the cells of a row (column A is 0).
 */
export type Mapping = {
  sheet: string;
  headerRow: number;
  questionColumn: number;
  answerColumn: number | null;
  commentsColumn: number | null;
  idColumn: number | null;
  /** The first and last rows that may hold questions (0-based, inclusive), set by a person in the preview. */
  firstRow?: number;
  lastRow?: number;
  /**
   * Only for answers given by marking one of several columns (CAIQ v3: an "X" under Yes, No or Not Applicable). The
   * answer is the label of the marked column; answerColumn is the first of them.
   */
  answerChoiceColumns?: AnswerChoiceColumn[];
};

/** One of the columns an answer is marked under; `mark` is what a mark there looks like ("X", "✓", the label). */
export type AnswerChoiceColumn = { column: number; label: string; mark?: string };

/** One question to answer and where it came from, so the answer can be written back to the same place. */
export type QuestionItem = {
  sheet: string;
  /** 1-based row number as the spreadsheet shows it (for a Word table, the table's row). */
  row: number;
  controlId: string | null;
  question: string;
  /** The last section heading above the question. */
  section: string | null;
  /** The values the answer cell's dropdown allows, e.g. ["Yes", "No", "N/A"]. */
  allowedValues: string[] | null;
  /** The customer's answer already in the file: never replaced without the user's say. */
  existingAnswer: string | null;
  /** The template's hint in the answer cell ("mm/dd/yyyy", "Vendor Name"): an answer may replace it. */
  answerHint: string | null;
  /** Text already in the comments cell, which the export leaves as it is. */
  existingComment: string | null;
};

export type IntakeSheet = {
  name: string;
  hidden: boolean;
  rowCount: number;
  columns: string[];
  mapping: Mapping | null;
  questionCount: number;
  /** Why a sheet holding questions is not read as the questionnaire (a reference sheet, a copy); null otherwise. */
  skipped: string | null;
};

/** A questionnaire read and understood: its sheets, the columns used on each, and its questions in order. */
export type Intake = {
  format: QuestionnaireFormat;
  sheets: IntakeSheet[];
  mappings: Mapping[];
  questions: QuestionItem[];
  /** Rows that were left out for a reason worth telling the user (a question cell too long to be a question). */
  notes: string[];
};
