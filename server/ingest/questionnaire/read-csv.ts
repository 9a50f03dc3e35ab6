import Papa from 'papaparse';
import { decodeText } from '../text-decode';
import { notWhatItsNameSays } from './messages';
import { densify } from './sheetjs-sheets';
import { cleanCellText } from './text-patterns';
import type { RawSheet } from './types';

export const CSV_SHEET_NAME = 'CSV';

/**
 * CSV (or tab/semicolon separated) bytes: UTF-8 or UTF-16 with a BOM, else Windows-1252, which is what Excel on
 * Windows writes when told "CSV" in much of Europe and what a stray "é" in a UTF-8-less export is.
 */
export function readCsv(bytes: Uint8Array): { sheets: RawSheet[]; notes: string[] } {
  const decoded = decodeText(bytes);
  if (!decoded.ok && decoded.problem === 'binary') throw notWhatItsNameSays('csv', 'binary data');
  const text = decoded.ok ? decoded.text : new TextDecoder('windows-1252').decode(bytes);
  return { sheets: [csvSheet(text)], notes: [] };
}

/**
 * The records of CSV text as written (not cleaned), with the delimiter used and Excel's "sep=" line if there was one.
 * Record i is row i + 1 as the intake numbers rows: a "sep=" line counts as a blank row, and blank lines are kept.
 */
export function parseCsvRecords(text: string): { records: string[][]; delimiter: string; sepLine: string | null } {
  let body = text.replace(/^\ufeff/, '');
  // Excel honours a first line "sep=;" naming the delimiter; it is not data. An empty line keeps the numbering.
  const hint = /^sep=(.)\r?\n/i.exec(body);
  if (hint) body = `\n${body.slice(hint[0].length)}`;
  const delimiter = hint?.[1] ?? guessDelimiter(body);
  // papaparse reports problems (a missing closing quote, rows of uneven length) but still returns every row it
  // could read; a slightly irregular export is better read than refused.
  const { data } = Papa.parse<string[]>(body, { delimiter, skipEmptyLines: false });
  const records = data.map((record) => (Array.isArray(record) ? record.map((cell) => String(cell)) : []));
  return { records, delimiter, sepLine: hint?.[0] ?? null };
}

/** One sheet of rows from CSV text; row i of the result is record i + 1 of the file, blank lines included. */
export function csvSheet(text: string): RawSheet {
  const rows = parseCsvRecords(text).records.map((record) => record.map((cell) => cleanCellText(cell)));
  return { name: CSV_SHEET_NAME, hidden: false, rows: densify(rows), merges: [], validations: [] };
}

/**
 * papaparse's own guess counts blank lines as one-field rows, so a short tab-separated file ending in a newline is
 * taken for a one-column CSV; guessing on the non-blank lines only avoids that.
 */
function guessDelimiter(text: string): string {
  const { meta } = Papa.parse<string[]>(text, {
    preview: 100,
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', ';', '\t', '|'],
  });
  return meta.delimiter || ',';
}
