import Papa, { type ParseError } from 'papaparse';
import { CSV_IMPORT_CONFIDENCE } from '../constants';
import { entriesFromRows, findHeader } from './sheet';
import { ImportParseError, type ParsedEntry, type ParseOptions } from './types';
import { importSourceLabel, stripBom, toLf } from './text';

const isBlankRow = (row: readonly string[]): boolean => row.every((cell) => cell.trim() === '');

/**
 * Comma unless the header line has none: a table pasted from Excel arrives tab-separated, and Excel in many
 * European locales saves with semicolons. Decided from the header alone because papaparse's own guess looks at
 * data rows too, where "; " between tags could win.
 */
function delimiterOf(text: string): string {
  const headerLine = /^[^\n]*\S[^\n]*$/m.exec(text)?.[0] ?? '';
  if (headerLine.includes(',')) return ',';
  if (headerLine.includes('\t')) return '\t';
  if (headerLine.includes(';')) return ';';
  return ',';
}

function describe(error: ParseError): string {
  switch (error.code) {
    case 'MissingQuotes':
      return 'A quoted value is never closed';
    case 'InvalidQuotes':
      return 'A quoted value has text after its closing quote';
    default:
      return 'This row could not be read as CSV';
  }
}

/**
 * Parses a CSV whose first row is a header with question and answer columns (PRODUCT §5). Unlike the specification's original,
 * quoted values may hold commas, doubled quotes and line breaks (RFC 4180). Line breaks come back as `\n`.
 * Row numbers in messages count records as a spreadsheet shows them: the header is row 1, blank lines count.
 */
export function parseCsv(content: string, opts: ParseOptions = {}): ParsedEntry[] {
  const text = toLf(stripBom(content));
  // Blank lines are kept (and skipped below) rather than left to skipEmptyLines, so row numbers match the file.
  const parsed = Papa.parse<string[]>(text, { header: false, delimiter: delimiterOf(text), newline: '\n' });
  const rows = parsed.data;
  const [firstError] = parsed.errors;
  if (firstError) {
    const rowNumber = (firstError.row ?? rows.length - 1) + 1;
    throw new ImportParseError(`Row ${rowNumber}: ${describe(firstError)}`);
  }

  const firstRow = rows.findIndex((row) => !isBlankRow(row));
  const filledRows = rows.reduce((n, row) => (isBlankRow(row) ? n : n + 1), 0);
  if (firstRow < 0 || filledRows < 2) throw new ImportParseError('CSV must have header and at least one data row');

  // Only blank lines may come before the header, so looking up to the first filled row means "the first row".
  const header = findHeader(rows, firstRow);
  if (!header) throw new ImportParseError("CSV must contain 'question' and 'answer' columns");

  const needed = Math.max(header.columns.question, header.columns.answer) + 1;
  for (let i = header.rowIndex + 1; i < rows.length; i++) {
    const row = rows[i];
    if (row && !isBlankRow(row) && row.length < needed) {
      throw new ImportParseError(`Row ${i + 1}: Insufficient columns`);
    }
  }

  return entriesFromRows(rows, header, {
    source: importSourceLabel('CSV', opts.now),
    confidence: CSV_IMPORT_CONFIDENCE,
  });
}
