import Papa from 'papaparse';
import { parseCsvRecords } from './read-csv';
import { neutraliseCell } from '../../../common/import/formula-guard';
import { decodeText, hasUtf16Bom } from '../text-decode';
import { choiceFor } from './write-marks';
import { ADDED_COLUMNS } from './write-plan';
import { cleanCellText } from './write-text';
import { type AnswerCell, WriteBackError, type WriteTarget } from './write-types';

/**
 * The customer's CSV with the answers written in: the same records, columns and order, the same delimiter and line
 * ends; each answer goes to the answer column, or to a "Response" column appended after the last one, and its
 * Yes / No / N/A to a mark under its answer-choice column when the file answers so. Cells the customer filled are
 * never replaced (a template hint the intake recognised is); every other byte of meaning is kept (values are
 * re-quoted only where the format needs it). Answers are guarded against formula injection as every export is.
 */
export function writeAnswersToCsv(original: Uint8Array, target: WriteTarget, answers: readonly AnswerCell[]): string {
  const decoded = decodeText(original);
  const text = decoded.ok ? decoded.text : new TextDecoder('windows-1252').decode(original);
  // The answers are written as UTF-8. A file that had a byte-order mark keeps one, and a file in another encoding
  // gets one, or Excel would read its accented letters as Windows-1252 again.
  const utf8Bom = original[0] === 0xef && original[1] === 0xbb && original[2] === 0xbf;
  const bom = utf8Bom || hasUtf16Bom(original) || !decoded.ok;
  const { records, delimiter, sepLine } = parseCsvRecords(text);
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  // papaparse reads the line end after the last record as one more, empty record.
  const last = records[records.length - 1];
  const trailing = records.length > 1 && last !== undefined && last.every((cell) => cell === '');
  if (trailing) records.pop();
  const width = records.reduce((max, record) => Math.max(max, record.length), 0);
  const answerColumn = target.answerColumn !== null ? target.answerColumn - 1 : width;
  if (target.answerColumn === null && target.headerRow >= 1) {
    const header = records[target.headerRow - 1];
    if (header) setCell(header, answerColumn, ADDED_COLUMNS.response.header);
  }
  for (const answer of answers) {
    const record = records[answer.row - 1];
    if (!record) throw new WriteBackError('invalid_target', `Row ${answer.row} is outside the CSV file.`);
    // A mark under one of the answer-choice columns, only where none of them holds anything yet.
    const choices = target.choiceColumns ?? [];
    const mark =
      answer.choice === undefined
        ? choiceFor(answer.shortAnswer, choices)
        : (choices.find((choice) => choice.label === answer.choice) ?? null);
    if (mark && choices.every((choice) => (record[choice.column - 1] ?? '').trim() === '')) {
      setCell(record, mark.column - 1, neutraliseCell(cleanCellText(mark.mark)));
    }
    const current = (record[answerColumn] ?? '').trim();
    if (current !== '' && current !== answer.hint?.trim()) continue;
    setCell(record, answerColumn, neutraliseCell(cleanCellText(answer.answer)));
  }
  // The "sep=" line stands as a blank first record in the numbering; it is written back as it was.
  const body = Papa.unparse(sepLine ? records.slice(1) : records, { delimiter, newline, quotes: false });
  return `${bom ? '\ufeff' : ''}${sepLine ?? ''}${body}${trailing ? newline : ''}`;
}

/** Sets one cell, padding only this record with empty cells up to it. */
function setCell(record: string[], column: number, value: string): void {
  while (record.length < column) record.push('');
  record[column] = value;
}
