import { describe, expect, it } from 'vitest';
import type { CanonicalAnswerView } from '../schemas/knowledge';
import { canonicalAnswersToCsv, LIBRARY_EXPORT_COLUMNS, neutraliseCell, toCsv } from './csv-export';
import { unneutraliseCell } from './formula-guard';

const answer = (over: Partial<CanonicalAnswerView> = {}): CanonicalAnswerView => ({
  id: 'a1',
  workspaceId: 'w1',
  question: 'Do you encrypt data at rest?',
  answer: 'Yes, AES-256.',
  tags: ['encryption', 'storage'],
  status: 'approved',
  confidence: 95,
  source: 'SOC 2 report',
  owner: { id: 'u1', username: 'alice' },
  createdBy: null,
  lastVerifiedAt: '2025-01-02T03:04:05.000Z',
  lastVerifiedBy: null,
  reviewIntervalDays: 365,
  verifyBy: null,
  needsReverification: false,
  createdAt: '2024-12-01T00:00:00.000Z',
  updatedAt: '2025-01-03T00:00:00.000Z',
  ...over,
});

describe('neutraliseCell: formula-injection guard', () => {
  it.each(['=SUM(A1)', '+1', '-1', '@cmd', '\tx', '\rx', "'quoted"])('prefixes %j with a quote', (value) => {
    expect(neutraliseCell(value)).toBe(`'${value}`);
  });

  it('leaves other values alone', () => {
    expect(neutraliseCell('Yes, we do.')).toBe('Yes, we do.');
    expect(neutraliseCell('')).toBe('');
    expect(neutraliseCell('a=b')).toBe('a=b');
  });

  it('is undone exactly by the import side', () => {
    const values = [
      '=1',
      "'",
      "''=1",
      "'abc",
      '-',
      'plain',
      '',
      "'\t",
      "a;'=1",
      'a;"=1',
      "a\n'",
      "a;''",
      ';;=',
      ",'\n-",
    ];
    for (const value of values) {
      expect(unneutraliseCell(neutraliseCell(value))).toBe(value);
    }
  });
});

describe('toCsv: RFC 4180 with a BOM', () => {
  it('starts with a UTF-8 BOM and separates records with CRLF', () => {
    expect(
      toCsv([
        ['a', 'b'],
        ['c', 'd'],
      ]),
    ).toBe('\uFEFFa,b\r\nc,d');
  });

  it('quotes cells with commas, quotes, line breaks or edge spaces, doubling quotes', () => {
    expect(toCsv([['a,b', 'say "hi"', 'line\nbreak', 'cr\rx', ' pad', 'plain']])).toBe(
      '\uFEFF"a,b","say ""hi""","line\nbreak","cr\rx"," pad",plain',
    );
  });

  it('quotes cells holding the other list separators, ";" and tab', () => {
    expect(toCsv([['Yes; we do', 'a\tb']])).toBe('\uFEFF"Yes; we do","a\tb"');
  });

  it('guards a formula after a separator or line break, where a ";" spreadsheet starts a new cell', () => {
    // Excel with ";" as its list separator splits this row at ";" and reads a quote inside a piece as text.
    expect(toCsv([['x', 'Yes;=1+1']])).toBe(`\uFEFFx,"Yes;'=1+1"`);
    expect(toCsv([['x', 'a;"=1+1']])).toBe(`\uFEFFx,"a;'""=1+1"`);
    expect(neutraliseCell('Yes\n=1+1,+2\t-3\r@4')).toBe("Yes\n'=1+1,'+2\t'-3\r'@4");
    expect(neutraliseCell('Yes; =1, 2')).toBe('Yes; =1, 2');
  });

  it('neutralises every cell before quoting', () => {
    expect(toCsv([['=1+1', '-2, or so']])).toBe('\uFEFF\'=1+1,"\'-2, or so"');
  });
});

describe('canonicalAnswersToCsv: the library export', () => {
  it('writes the header and one row per answer', () => {
    const lines = canonicalAnswersToCsv([answer()]).slice(1).split('\r\n');
    expect(lines[0]).toBe(LIBRARY_EXPORT_COLUMNS.join(','));
    expect(lines[1]).toBe(
      'Do you encrypt data at rest?,"Yes, AES-256.","encryption; storage",approved,95,SOC 2 report,alice,' +
        '2025-01-02T03:04:05.000Z,2025-01-03T00:00:00.000Z',
    );
  });

  it('leaves empty cells for a missing confidence, source, owner and verification date', () => {
    const csv = canonicalAnswersToCsv([
      answer({ confidence: null, source: null, owner: null, lastVerifiedAt: null, tags: [] }),
    ]);
    expect(csv.split('\r\n')[1]).toBe(
      'Do you encrypt data at rest?,"Yes, AES-256.",,approved,,,,,2025-01-03T00:00:00.000Z',
    );
  });

  it('writes only the header for no answers', () => {
    expect(canonicalAnswersToCsv([])).toBe(`\uFEFF${LIBRARY_EXPORT_COLUMNS.join(',')}`);
  });
});
