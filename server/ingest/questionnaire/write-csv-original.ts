import Papa from 'papaparse';
import { neutraliseCell } from '../../../common/import/formula-guard';
import { decodeText } from '../text-decode';
import { ADDED_COLUMNS } from './write-plan';
import { cleanCellText } from './write-text';
import { type AnswerCell, WriteBackError, type WriteTarget } from './write-types';

/**
 * The customer's CSV with the answers written in: the same records, columns and order, the same delimiter and line
 * ends; each answer goes to the answer column, or to a "Response" column appended after the last one. Cells the
 * customer filled are never replaced; every other byte of meaning is kept (values are re-quoted only where the
 * format needs it). Answers are guarded against formula injection as every export is.
 */
export function writeAnswersToCsv(original: Uint8Array, target: WriteTarget, answers: readonly AnswerCell[]): string {
  const decoded = decodeText(original);
  const text = decoded.ok ? decoded.text : new TextDecoder('windows-1252').decode(original);
  // The answers are written as UTF-8; a file that came with a byte-order mark (UTF-8 or UTF-16) keeps one.
  const bom =
    text.startsWith('\ufeff') ||
    (original[0] === 0xef && original[1] === 0xbb && original[2] === 0xbf) ||
    (original[0] === 0xff && original[1] === 0xfe) ||
    (original[0] === 0xfe && original[1] === 0xff);
  let body = text.startsWith('\ufeff') ? text.slice(1) : text;
  const hint = /^sep=(.)\r?\n/i.exec(body);
  if (hint) body = body.slice(hint[0].length);
  const newline = body.includes('\r\n') ? '\r\n' : '\n';
  const parsed = Papa.parse<string[]>(body, { delimiter: hint?.[1] ?? '', skipEmptyLines: false });
  const delimiter = hint?.[1] ?? (parsed.meta.delimiter || ',');
  const records = parsed.data.map((record) => (Array.isArray(record) ? record.map(String) : []));
  // papaparse reads the line end after the last record as one more, empty record.
  const trailing = records.length > 0 && records[records.length - 1]?.every((cell) => cell === '') === true;
  if (trailing) records.pop();
  const offset = hint ? 1 : 0; // the intake numbers rows counting the "sep=" line as a blank one
  const width = records.reduce((max, record) => Math.max(max, record.length), 0);
  const answerColumn = target.answerColumn !== null ? target.answerColumn - 1 : width;
  if (target.answerColumn === null && target.headerRow >= 1) {
    const header = records[target.headerRow - 1 - offset];
    if (header) setCell(header, answerColumn, ADDED_COLUMNS.response.header);
  }
  for (const answer of answers) {
    const record = records[answer.row - 1 - offset];
    if (!record) throw new WriteBackError('invalid_target', `Row ${answer.row} is outside the CSV file.`);
    if ((record[answerColumn] ?? '').trim() !== '') continue;
    setCell(record, answerColumn, neutraliseCell(cleanCellText(answer.answer)));
  }
  const out = Papa.unparse(
    records.map((record) =>
      Array.from({ length: Math.max(record.length, answerColumn + 1) }, (_, i) => record[i] ?? ''),
    ),
    { delimiter, newline, quotes: false },
  );
  return `${bom ? '\ufeff' : ''}${hint ? hint[0] : ''}${out}${trailing ? newline : ''}`;
}

function setCell(record: string[], column: number, value: string): void {
  while (record.length < column) record.push('');
  record[column] = value;
}
