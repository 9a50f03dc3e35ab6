import { describe, expect, it } from 'vitest';
import { asSentence, parseRowNumber, rowNumberText } from './mapping-rows';

describe('parseRowNumber', () => {
  it("reads the spreadsheet's row number as a 0-based index, and an empty box as no row", () => {
    expect(parseRowNumber('7', 20)).toBe(6);
    expect(parseRowNumber(' 1 ', 20)).toBe(0);
    expect(parseRowNumber('20', 20)).toBe(19);
    expect(parseRowNumber('', 20)).toBeNull();
    expect(parseRowNumber('  ', 20)).toBeNull();
  });

  it('says what is wrong with anything else', () => {
    expect(parseRowNumber('0', 20)).toEqual({ invalid: 'Enter a row number, 1 or more.' });
    expect(parseRowNumber('-3', 20)).toEqual({ invalid: 'Enter a row number, 1 or more.' });
    expect(parseRowNumber('2.5', 20)).toEqual({ invalid: 'Enter a row number, 1 or more.' });
    expect(parseRowNumber('21', 20)).toEqual({ invalid: 'The sheet has 20 rows.' });
    expect(parseRowNumber('2', 1)).toEqual({ invalid: 'The sheet has 1 row.' });
    expect(parseRowNumber('2000', 1500)).toEqual({ invalid: 'The sheet has 1,500 rows.' });
  });
});

describe('rowNumberText', () => {
  it('shows a 0-based index as the row number, and no row as an empty box', () => {
    expect(rowNumberText(6)).toBe('7');
    expect(rowNumberText(0)).toBe('1');
    expect(rowNumberText(-1)).toBe('');
    expect(rowNumberText(undefined)).toBe('');
  });

  it('round-trips with parseRowNumber', () => {
    for (const index of [0, 3, 99]) expect(parseRowNumber(rowNumberText(index), 100)).toBe(index);
  });
});

describe('asSentence', () => {
  it('turns a validation clause into a sentence', () => {
    expect(asSentence('the first question row (row 8) is after the last question row (row 6)')).toBe(
      'The first question row (row 8) is after the last question row (row 6).',
    );
    expect(asSentence('Already one.')).toBe('Already one.');
  });
});
