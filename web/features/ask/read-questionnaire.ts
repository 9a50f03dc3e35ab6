import Papa from 'papaparse';
import { QUESTION_MAX_LENGTH } from '../../../common/constants';

/** SPEC §5 bulk import files: CSV, old Excel (xls) or xlsx. */
export const QUESTIONNAIRE_EXTENSIONS = ['.csv', '.xls', '.xlsx'] as const;
/** A questionnaire larger than this is an assessment for the Bulk Assessments screen, not one chat. */
export const QUESTIONNAIRE_MAX_QUESTIONS = 500;

/** Header names questionnaire tools use for the question column (after trim and lower case). */
const QUESTION_HEADERS = new Set(['question', 'questions', 'question text', 'control question', 'query']);
/** How far down a title block may push the header row. */
const HEADER_SEARCH_ROWS = 10;

export class QuestionnaireError extends Error {
  override name = 'QuestionnaireError';
}

export function hasQuestionnaireExtension(name: string): boolean {
  const lower = name.toLowerCase();
  return QUESTIONNAIRE_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

async function readRows(file: File): Promise<string[][]> {
  const name = file.name.toLowerCase();
  if (name.endsWith('.csv')) {
    const text = (await file.text()).replace(/^\uFEFF/, '');
    return Papa.parse<string[]>(text, { header: false, skipEmptyLines: 'greedy' }).data;
  }
  if (name.endsWith('.xls')) {
    // exceljs reads only the XML workbook format; the old binary one would come out empty.
    throw new QuestionnaireError('Old Excel (.xls) files cannot be read. Save the file as .xlsx or CSV and try again.');
  }
  // exceljs (about 1 MB) loads only when someone actually picks a workbook.
  const exceljs = await import('exceljs');
  const workbook = new exceljs.Workbook();
  await workbook.xlsx.load(await file.arrayBuffer());
  const rows: string[][] = [];
  for (const sheet of workbook.worksheets) {
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, column) => {
        cells[column - 1] = cell.text;
      });
      rows.push(Array.from(cells, (cell) => cell ?? ''));
    });
    // The first sheet holding anything is the questionnaire; later sheets are usually notes or answers.
    if (rows.length > 0) break;
  }
  return rows;
}

/**
 * The questions of a customer's questionnaire: the column headed 'Question' (under an optional title block), or
 * else the first filled cell of every row. Repeated and blank questions are dropped.
 */
export async function readQuestionnaire(file: File): Promise<string[]> {
  const rows = await readRows(file);
  const headerRow = rows
    .slice(0, HEADER_SEARCH_ROWS)
    .findIndex((row) => row.some((cell) => QUESTION_HEADERS.has(cell.trim().toLowerCase())));
  const column =
    headerRow >= 0 ? (rows[headerRow]?.findIndex((cell) => QUESTION_HEADERS.has(cell.trim().toLowerCase())) ?? -1) : -1;
  const body = headerRow >= 0 ? rows.slice(headerRow + 1) : rows;

  const seen = new Set<string>();
  const questions: string[] = [];
  for (const row of body) {
    const cell = column >= 0 ? row[column] : row.find((value) => value.trim() !== '');
    const question = cell?.trim().replace(/\s+/g, ' ').slice(0, QUESTION_MAX_LENGTH);
    if (!question || seen.has(question.toLowerCase())) continue;
    seen.add(question.toLowerCase());
    questions.push(question);
  }
  if (questions.length === 0) throw new QuestionnaireError('No questions were found in this file.');
  if (questions.length > QUESTIONNAIRE_MAX_QUESTIONS) {
    throw new QuestionnaireError(
      `This file holds ${String(questions.length)} questions; at most ${String(QUESTIONNAIRE_MAX_QUESTIONS)} can be answered in one chat. Split it and import each part.`,
    );
  }
  return questions;
}
