import { AppError } from '../../errors';

/** The short form of a yes/no answer, as the answer engine classifies it. */
export type ShortAnswer = 'Yes' | 'No' | 'N/A';

/** One answer to write back, addressed as Excel shows it: sheet name and 1-based row. */
export type AnswerCell = {
  sheet: string;
  row: number;
  /** The full answer (the explanation). Empty text writes nothing: a customer's cell is never blanked. */
  answer: string;
  /** Set when the question is yes/no and the answer starts with Yes/No/N-A; drives dropdown cells. */
  shortAnswer?: ShortAnswer | null;
  /**
   * The dropdown value a person picked, which wins over `shortAnswer`: a value of the cell's list, or null to leave
   * the cell empty; undefined when nobody picked.
   */
  choice?: string | null;
  /** The cited document and page or library entry, for the optional "Source" column. */
  source?: string | null;
  /** This row's own dropdown values, when its answer cell has a list of its own (they differ row by row). */
  allowedValues?: string[] | null;
  /** The comments cell already holds the customer's text: leave it as it is. */
  keepComments?: boolean;
  /** The template's hint the answer cell held at import ("mm/dd/yyyy"): a cell still holding it may be replaced. */
  hint?: string | null;
};

/** Where one questionnaire table sits in a sheet. Rows and columns are 1-based, as Excel shows them. */
export type WriteTarget = {
  sheet: string;
  /** 0 when the sheet has no header row: every row may hold a question. */
  headerRow: number;
  questionColumn: number;
  /** The detected answer column; null adds a "Response" column to the right of the table. */
  answerColumn: number | null;
  /** Where the explanation goes when the answer cell is a dropdown; null adds a "Comments" column if needed. */
  commentsColumn: number | null;
  /** The answer column's dropdown values (e.g. ["Yes","No","N/A"]); null when it is free text. */
  allowedValues: string[] | null;
  /** Adds a "Source" column holding each answer's `source`. */
  addSourceColumn?: boolean;
  /**
   * Answers given by a mark under one of these columns (CAIQ v3: Yes / No / Not Applicable). A row with nothing
   * under any of them gets `mark` under the column its short answer names; a row with anything under any of them
   * is the customer's answer and is never marked again. The written answer still goes to `answerColumn`.
   */
  choiceColumns?: ChoiceTarget[];
};

/** One answer-choice column, 1-based, with its label ("Not Applicable") and the mark to write there ("X"). */
export type ChoiceTarget = { column: number; label: string; mark: string };

export type WriteBackErrorCode = 'corrupt' | 'too_large' | 'sheet_not_found' | 'invalid_target';

/**
 * The original workbook cannot be filled in. `corrupt` / `too_large` are properties of the stored file; the other
 * two mean the targets do not fit the workbook (a stale mapping), which a CSV or fresh-workbook export avoids.
 */
export class WriteBackError extends AppError {
  constructor(
    readonly reason: WriteBackErrorCode,
    message: string,
  ) {
    super(422, reason, message);
    this.name = 'WriteBackError';
  }
}

/** Excel's limits: a cell holds at most 32,767 characters; a sheet has 1,048,576 rows and 16,384 (XFD) columns. */
export const EXCEL_LIMITS = { cellCharacters: 32_767, rows: 1_048_576, columns: 16_384 } as const;

/** One question of an assessment, for the exports that do not fill the original (CSV, a fresh workbook). */
export type ExportRow = {
  /** The question's number as the assessment shows it; the 1-based position in the list when absent. */
  orderIndex?: number;
  controlId?: string | null;
  question: string;
  answer: string;
  answerType: string;
  /** 0–100; null when there is no answer. */
  confidence: number | null;
  /** The question's review state as the review screen labels it (Approved, In review…), when the export shows it. */
  status?: string | null;
  sources: string;
};
