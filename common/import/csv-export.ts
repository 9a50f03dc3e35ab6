import type { CanonicalAnswerView } from '../schemas/knowledge';
import { neutraliseCell } from './formula-guard';

export { neutraliseCell };

/**
 * A cell is quoted when unquoted it would split (at a comma, or at the `;` or tab a spreadsheet of another locale
 * separates with), or when a reader that trims would change it.
 */
const NEEDS_QUOTES = /[",;\t\r\n]|^\s|\s$/;

function csvCell(value: string): string {
  const cell = neutraliseCell(value);
  return NEEDS_QUOTES.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/**
 * The one CSV writer of every export. RFC 4180: every cell guarded against formula injection, quoted when needed, CRLF between records, and a
 * UTF-8 byte-order mark first, without which Excel reads the file as ANSI and mangles accented letters.
 */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}`;
}

/** The library export's columns; the first six are the ones the CSV import reads back. */
export const LIBRARY_EXPORT_COLUMNS = [
  'question',
  'answer',
  'tags',
  'status',
  'confidence',
  'source',
  'owner',
  'lastVerifiedAt',
  'updatedAt',
] as const;

/**
 * The library export as CSV, in a shape `parseCsv` imports back unchanged (question, answer, tags, confidence,
 * source), as long as no tag contains the ';' that separates tags in one cell.
 */
export function canonicalAnswersToCsv(answers: readonly CanonicalAnswerView[]): string {
  const rows = answers.map((a) => [
    a.question,
    a.answer,
    a.tags.join('; '),
    a.status,
    a.confidence === null ? '' : String(a.confidence),
    a.source ?? '',
    a.owner?.username ?? '',
    a.lastVerifiedAt ?? '',
    a.updatedAt,
  ]);
  return toCsv([[...LIBRARY_EXPORT_COLUMNS], ...rows]);
}
