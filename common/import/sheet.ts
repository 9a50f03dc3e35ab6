import { CSV_IMPORT_CONFIDENCE } from '../constants';
import { unneutraliseCell } from './formula-guard';
import { checkEntryCount, checkEntryLimits } from './limits';
import { ImportParseError, type ParsedEntry } from './types';
import { cleanTags, toLf } from './text';

/** Column index of each known field in a header row; only question and answer are required. */
export type SheetColumns = {
  question: number;
  answer: number;
  tags?: number;
  comments?: number;
  source?: number;
  confidence?: number;
};

export type SheetHeader = { rowIndex: number; columns: SheetColumns };

type Field = keyof SheetColumns;

/** Header names as questionnaire tools and hand-made sheets spell them, after trim, whitespace collapse, lower case. */
const ALIASES: Record<Field, readonly string[]> = {
  question: ['question', 'questions', 'question text', 'control question', 'query'],
  answer: ['answer', 'answers', 'response', 'responses', 'reply'],
  tags: ['tags', 'tag', 'category', 'categories', 'domain'],
  comments: [
    'comments',
    'comment',
    'notes',
    'details',
    'explanation',
    'additional information',
    'implementation description',
  ],
  source: ['source'],
  confidence: ['confidence'],
};

const QUESTION_WORDS = new Set(['question', 'questions']);
const ANSWER_WORDS = new Set(['answer', 'answers', 'response', 'responses']);
/** Words that make "Question …" an identifier column wherever they appear. */
const ID_WORDS = new Set(['id', 'ids', 'identifier']);
/** Words that only do so right after the keyword: "Question No." is an id, "Answer (Yes/No)" is an answer. */
const ID_SUFFIX_WORDS = new Set(['no', 'nr', 'num', 'number', 'ref', 'reference', 'key', 'code']);

/** Spreadsheets often have a title or a note above the header; CSV headers must be the first row (PRODUCT §5). */
const SHEET_HEADER_SEARCH_ROWS = 10;

function headerKey(cell: string | undefined): string {
  return (cell ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
}

function looksLikeId(words: readonly string[]): boolean {
  return words.some(
    (word, i) =>
      word.includes('#') || ID_WORDS.has(word) || (ID_SUFFIX_WORDS.has(word) && i > 0 && isKeyword(words[i - 1] ?? '')),
  );
}

function isKeyword(word: string): boolean {
  return QUESTION_WORDS.has(word) || ANSWER_WORDS.has(word);
}

/** The field a header that is no exact alias still clearly names, e.g. "CSP CAIQ Answer" or "Vendor Response". */
function looseField(key: string): 'question' | 'answer' | null {
  const words = key.split(/[^\p{L}\p{N}#]+/u).filter(Boolean);
  if (looksLikeId(words)) return null;
  const question = words.some((w) => QUESTION_WORDS.has(w));
  const answer = words.some((w) => ANSWER_WORDS.has(w));
  // "Response to question" could be either column; leaving it out is safer than guessing.
  if (question === answer) return null;
  return question ? 'question' : 'answer';
}

function columnsOf(cells: readonly (string | undefined)[]): SheetColumns | null {
  const keys = Array.from(cells, headerKey);
  const found: Partial<Record<Field, number>> = {};
  const taken = new Set<number>();
  const take = (field: Field, matches: (key: string) => boolean) => {
    if (found[field] !== undefined) return;
    const index = keys.findIndex((key, i) => !taken.has(i) && matches(key));
    if (index < 0) return;
    found[field] = index;
    taken.add(index);
  };
  for (const field of Object.keys(ALIASES) as Field[]) take(field, (key) => ALIASES[field].includes(key));
  take('question', (key) => looseField(key) === 'question');
  take('answer', (key) => looseField(key) === 'answer');
  const { question, answer } = found;
  if (question === undefined || answer === undefined) return null;
  return { ...found, question, answer };
}

/**
 * Finds the header row: the first row at or before `maxHeaderRow` (0-based) that has both a question and an answer
 * column. Exact aliases win over headers that merely contain "question"/"answer"/"response"; id columns
 * ("Question ID", "Question #") are never taken for the question.
 */
export function findHeader(rows: readonly (readonly (string | undefined)[])[], maxHeaderRow = 0): SheetHeader | null {
  const last = Math.min(maxHeaderRow, rows.length - 1);
  for (let rowIndex = 0; rowIndex <= last; rowIndex++) {
    const columns = columnsOf(rows[rowIndex] ?? []);
    if (columns) return { rowIndex, columns };
  }
  return null;
}

export type RowEntryOptions = {
  /** Used for rows without a source cell. */
  source: string;
  /** Used for rows without a usable confidence cell. */
  confidence: number;
  /** rows[i] is row `i + 1 + rowNumberOffset` of the file, for the row numbers in messages. */
  rowNumberOffset?: number;
};

/** A cell as the user meant it: trimmed, without the export's formula guard, with `\n` line breaks. */
function cellValue(cells: readonly (string | undefined)[], index: number | undefined): string {
  if (index === undefined) return '';
  const raw = cells[index];
  if (typeof raw !== 'string') return '';
  return toLf(unneutraliseCell(raw.trim())).trim();
}

/** Keeps the sheet's explanation next to a short "Yes"/"No" answer rather than losing it. */
function mergeComments(answer: string, comments: string): string {
  if (!comments) return answer;
  if (!answer) return comments;
  return `${answer}${/[.!?]$/.test(answer) ? ' ' : '. '}${comments}`;
}

/** "85" and "85%" (and Excel's "85.0") count; anything else, or outside 0–100, falls back to the default. */
function confidenceOf(cell: string, fallback: number): number {
  const match = /^(\d{1,3})(?:\.0+)?\s*%?$/.exec(cell);
  const value = match ? Number(match[1]) : Number.NaN;
  return value >= 0 && value <= 100 ? value : fallback;
}

/**
 * One entry per data row below the header. Rows without a question or an answer (after merging comments into the
 * answer) are dropped, as PRODUCT §5 says; limits are checked with the row number a person sees in the file.
 */
export function entriesFromRows(
  rows: readonly (readonly (string | undefined)[])[],
  header: SheetHeader,
  opts: RowEntryOptions,
): ParsedEntry[] {
  const { columns } = header;
  const offset = opts.rowNumberOffset ?? 0;
  const kept: Array<{ rowNumber: number; question: string; answer: string; cells: readonly (string | undefined)[] }> =
    [];
  for (let i = header.rowIndex + 1; i < rows.length; i++) {
    const cells = rows[i] ?? [];
    const question = cellValue(cells, columns.question);
    const answer = mergeComments(cellValue(cells, columns.answer), cellValue(cells, columns.comments));
    if (question && answer) kept.push({ rowNumber: i + 1 + offset, question, answer, cells });
  }
  // Counted before any row is checked: a 50,000-row sheet needs splitting whatever its rows hold.
  checkEntryCount(kept.length);
  return kept.map(({ rowNumber, question, answer, cells }) =>
    checkEntryLimits(
      {
        question,
        answer,
        tags: cleanTags(cellValue(cells, columns.tags).split(';')),
        source: cellValue(cells, columns.source) || opts.source,
        confidence: confidenceOf(cellValue(cells, columns.confidence), opts.confidence),
      },
      `Row ${rowNumber}`,
    ),
  );
}

export type SheetEntryOptions = {
  source: string;
  /** Defaults to CSV_IMPORT_CONFIDENCE: a spreadsheet upload is held to the same default as a CSV one. */
  confidence?: number;
};

/**
 * Entries of a workbook: the first sheet with a question/answer header within its first 10 rows is read.
 * Each sheet's rows[0] must be the sheet's row 1, so messages carry the row numbers Excel shows.
 */
export function entriesFromSheets(
  sheets: ReadonlyArray<{ name: string; rows: readonly (readonly (string | undefined)[])[] }>,
  opts: SheetEntryOptions,
): ParsedEntry[] {
  for (const sheet of sheets) {
    const header = findHeader(sheet.rows, SHEET_HEADER_SEARCH_ROWS - 1);
    if (!header) continue;
    const entries = entriesFromRows(sheet.rows, header, {
      source: opts.source,
      confidence: opts.confidence ?? CSV_IMPORT_CONFIDENCE,
    });
    if (entries.length === 0) throw new ImportParseError('No valid Q&A entries found');
    return entries;
  }
  throw new ImportParseError("No sheet has a header row with 'question' and 'answer' columns");
}
