import { ASSESSMENT_MAX_QUESTIONS } from '../../../common/schemas/assessments';
import { PASSWORD_PROTECTED_MESSAGE } from './zip-guard';
import { QuestionnaireError, type QuestionnaireFormat } from './types';

// Every sentence a user may see when a questionnaire is refused, in one place so the wording stays consistent.

export const MAX_QUESTIONS = ASSESSMENT_MAX_QUESTIONS;
export const MAX_QUESTION_CHARS = 10_000;

export const ACCEPTED_FORMATS_SENTENCE =
  'Upload the questionnaire as an Excel (.xlsx or .xls), CSV or Word (.docx) file.';

const NOUN: Readonly<Record<QuestionnaireFormat, string>> = {
  xlsx: 'an Excel workbook (.xlsx)',
  xls: 'an Excel 97–2003 workbook (.xls)',
  csv: 'a CSV file',
  docx: 'a Word document (.docx)',
};

export function emptyFile(): QuestionnaireError {
  return new QuestionnaireError(400, 'empty', 'The file is empty.');
}

export function noQuestions(): QuestionnaireError {
  return new QuestionnaireError(
    400,
    'no_questions',
    'No questions were found in this file. Check that it has a column of questions.',
  );
}

export function tooManyQuestions(count: number): QuestionnaireError {
  return new QuestionnaireError(
    413,
    'too_many_questions',
    `This questionnaire has ${count.toLocaleString('en-US')} questions; the limit is ${MAX_QUESTIONS.toLocaleString('en-US')}. Split it into smaller files.`,
    { details: { questionCount: count, limit: MAX_QUESTIONS } },
  );
}

export function passwordProtected(format: QuestionnaireFormat = 'xlsx'): QuestionnaireError {
  const message =
    format === 'docx'
      ? 'This document is password-protected. Remove the password and upload it again.'
      : PASSWORD_PROTECTED_MESSAGE;
  return new QuestionnaireError(422, 'encrypted', message);
}

export function corrupt(format: QuestionnaireFormat, cause?: unknown): QuestionnaireError {
  const noun = NOUN[format].replace(/^an? /, '');
  return new QuestionnaireError(422, 'corrupt', `The file is damaged or is not a valid ${noun}.`, { cause });
}

/** 'The file is not an Excel workbook (.xlsx): its content looks like a PDF. Upload the questionnaire as …' */
export function notWhatItsNameSays(expected: QuestionnaireFormat, looksLike: string): QuestionnaireError {
  return new QuestionnaireError(
    400,
    'unsupported_type',
    `The file is not ${NOUN[expected]}: its content looks like ${looksLike}. ${ACCEPTED_FORMATS_SENTENCE}`,
  );
}

export function unsupported(looksLike: string | null): QuestionnaireError {
  const what = looksLike
    ? `This type of file cannot be read as a questionnaire: its content looks like ${looksLike}.`
    : 'This type of file cannot be read as a questionnaire.';
  return new QuestionnaireError(400, 'unsupported_type', `${what} ${ACCEPTED_FORMATS_SENTENCE}`);
}

export function invalidMapping(sheet: string, problem: string): QuestionnaireError {
  return new QuestionnaireError(400, 'invalid_mapping', `The column choice for "${sheet}" is not valid: ${problem}.`);
}

export function longQuestionNote(sheet: string, row: number): string {
  return `Row ${row} of "${sheet}" was skipped: its question is longer than ${MAX_QUESTION_CHARS.toLocaleString('en-US')} characters.`;
}
