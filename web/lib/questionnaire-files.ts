import { ASSESSMENT_FILE_MAX_BYTES } from '../../common/schemas/assessments';
import { formatNumber } from './format';

/** Questionnaire files the server reads: CSV, Excel (xlsx and the old xls) and Word tables. */
export const QUESTIONNAIRE_EXTENSIONS = ['.csv', '.xlsx', '.xls', '.docx'] as const;

/** For a file input's `accept`: the extensions and the MIME types browsers report for them. */
export const QUESTIONNAIRE_ACCEPT = [
  ...QUESTIONNAIRE_EXTENSIONS,
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
].join(',');

/** The name's extension is one the server reads (it still checks the bytes). */
export function isQuestionnaireFile(name: string): boolean {
  const lower = name.toLowerCase();
  return QUESTIONNAIRE_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

export const QUESTIONNAIRE_MAX_MB = ASSESSMENT_FILE_MAX_BYTES / 1024 / 1024;

/** The server's own sentence for a file over the limit, said before the upload instead of after it. */
export const QUESTIONNAIRE_TOO_LARGE = `The file is larger than ${String(QUESTIONNAIRE_MAX_MB)} MB. Split it into smaller files.`;

/** 'Selected: name (12.3 KB)' as the specification's bulk import dialog words it. */
export function selectedFileLine(file: File): string {
  return `Selected: ${file.name} (${formatNumber(Math.round((file.size / 1024) * 10) / 10)} KB)`;
}
