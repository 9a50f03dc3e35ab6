import { describe, expect, it } from 'vitest';
import { ASSESSMENT_FILE_MAX_BYTES } from '../../common/schemas/assessments';
import {
  QUESTIONNAIRE_ACCEPT,
  QUESTIONNAIRE_EXTENSIONS,
  QUESTIONNAIRE_MAX_MB,
  QUESTIONNAIRE_TOO_LARGE,
  isQuestionnaireFile,
  selectedFileLine,
} from './questionnaire-files';

describe('isQuestionnaireFile', () => {
  it('accepts CSV, Excel and Word files whatever the case of the extension', () => {
    for (const name of ['q.csv', 'Q.XLSX', 'old.xls', 'vendor review.Docx', 'a.b.csv']) {
      expect(isQuestionnaireFile(name), name).toBe(true);
    }
  });

  it('refuses other files and names that only contain an extension elsewhere', () => {
    for (const name of ['q.pdf', 'q.doc', 'q.txt', 'csv', 'q.csv.zip', 'q.xlsx ', '']) {
      expect(isQuestionnaireFile(name), name).toBe(false);
    }
  });
});

describe('QUESTIONNAIRE_ACCEPT', () => {
  it("lists every extension and each format's MIME type for a file input", () => {
    const accepted = QUESTIONNAIRE_ACCEPT.split(',');
    for (const extension of QUESTIONNAIRE_EXTENSIONS) expect(accepted).toContain(extension);
    expect(accepted).toContain('text/csv');
    expect(accepted).toContain('application/vnd.ms-excel');
    expect(accepted).toContain('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(accepted).toContain('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });
});

describe('the size limit', () => {
  it("is the server's limit in megabytes, said in the too-large sentence", () => {
    expect(QUESTIONNAIRE_MAX_MB * 1024 * 1024).toBe(ASSESSMENT_FILE_MAX_BYTES);
    expect(QUESTIONNAIRE_TOO_LARGE).toBe(
      `The file is larger than ${String(QUESTIONNAIRE_MAX_MB)} MB. Split it into smaller files.`,
    );
  });
});

describe('selectedFileLine', () => {
  it('names the file and its size in kilobytes with one decimal', () => {
    expect(selectedFileLine(new File(['x'.repeat(12_600)], 'vendor.xlsx'))).toBe('Selected: vendor.xlsx (12.3 KB)');
    expect(selectedFileLine(new File([], 'empty.csv'))).toBe('Selected: empty.csv (0 KB)');
    expect(selectedFileLine(new File(['x'.repeat(2_048_000)], 'big.csv'))).toBe('Selected: big.csv (2,000 KB)');
  });
});
