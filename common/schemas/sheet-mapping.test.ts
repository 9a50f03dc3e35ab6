import { describe, expect, it } from 'vitest';
import { ImportFileFields, sheetRowsProblem } from './assessments';

const base = { sheet: 'Security', headerRow: 3, questionColumn: 1, answerColumn: 2, commentsColumn: null, idColumn: 0 };

describe('sheetRowsProblem', () => {
  it('accepts rows that go together, or none', () => {
    expect(sheetRowsProblem(base)).toBeNull();
    expect(sheetRowsProblem({ ...base, firstRow: 4, lastRow: 4 })).toBeNull();
    expect(sheetRowsProblem({ ...base, firstRow: 10 })).toBeNull();
    expect(sheetRowsProblem({ ...base, headerRow: -1, lastRow: 0 })).toBeNull();
  });

  it('says, in row numbers, what does not go together', () => {
    expect(sheetRowsProblem({ ...base, firstRow: 8, lastRow: 5 })).toBe(
      'the first question row (row 9) is after the last question row (row 6)',
    );
    expect(sheetRowsProblem({ ...base, lastRow: 3 })).toBe(
      'the header row (row 4) is not above the last question row (row 4)',
    );
  });
});

describe('ImportFileFields.mapping', () => {
  it('carries the first and last question rows', () => {
    const fields = ImportFileFields.parse({ mapping: JSON.stringify([{ ...base, firstRow: 4, lastRow: 9 }]) });
    expect(fields.mapping).toEqual([{ ...base, firstRow: 4, lastRow: 9 }]);
  });

  it('refuses rows that do not go together with a sentence naming the sheet', () => {
    const result = ImportFileFields.safeParse({ mapping: JSON.stringify([{ ...base, firstRow: 8, lastRow: 5 }]) });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'The column choice for "Security" is not valid: the first question row (row 9) is after the last question row (row 6).',
    );
    expect(ImportFileFields.safeParse({ mapping: JSON.stringify([{ ...base, lastRow: -1 }]) }).success).toBe(false);
  });
});
