import { describe, expect, it } from 'vitest';
import { expectParseError } from './expect-parse-error';
import { parsePlainText } from './plain-text';

const now = new Date('2025-01-31T14:05:09Z');
const parse = (content: string) => parsePlainText(content, { now });
const pairs = (content: string) => parse(content).map((e) => [e.question, e.answer]);

describe('parsePlainText: pairs separated by blank lines', () => {
  it('reads question then answer with the text defaults', () => {
    expect(parse('Do you use SSO?\nYes, via Okta.')).toEqual([
      {
        question: 'Do you use SSO?',
        answer: 'Yes, via Okta.',
        tags: [],
        source: 'Text import 2025-01-31 14:05',
        confidence: 90,
      },
    ]);
  });

  it('splits pairs on one or more blank or whitespace-only lines, trimming lines', () => {
    expect(pairs('  Q1  \n  A1  \n\n \t \n\nQ2\nA2\n')).toEqual([
      ['Q1', 'A1'],
      ['Q2', 'A2'],
    ]);
  });

  it('reads CRLF and CR-only text', () => {
    expect(pairs('Q1\r\nA1\r\n\r\nQ2\r\nA2')).toEqual(pairs('Q1\rA1\r\rQ2\rA2'));
    expect(pairs('Q1\r\nA1\r\n\r\nQ2\r\nA2')).toHaveLength(2);
  });

  it('keeps a multi-line answer, one line per line', () => {
    expect(pairs('Do you back up data?\nYes.\nDaily, to a second region.')).toEqual([
      ['Do you back up data?', 'Yes.\nDaily, to a second region.'],
    ]);
  });

  it('keeps markup as plain text', () => {
    expect(pairs('Q\n<script>alert(1)</script>')).toEqual([['Q', '<script>alert(1)</script>']]);
  });
});

describe('parsePlainText: Q: and A: prefixes', () => {
  it('strips Q: and A: prefixes in any case', () => {
    expect(pairs('Q: Do you use SSO?\nA: Yes.\n\nq:Do you use MFA?\na:Yes.')).toEqual([
      ['Do you use SSO?', 'Yes.'],
      ['Do you use MFA?', 'Yes.'],
    ]);
  });

  it('also strips Q. and A. but not an initial that starts a word', () => {
    expect(pairs('Q. Do you test?\nA. A.B. tests, weekly.')).toEqual([['Do you test?', 'A.B. tests, weekly.']]);
  });

  it('joins question lines before the A: line with spaces, and answer lines with line breaks', () => {
    expect(pairs('Q: Do you encrypt\ndata at rest?\nA: Yes.\nAES-256.')).toEqual([
      ['Do you encrypt data at rest?', 'Yes.\nAES-256.'],
    ]);
  });

  it('takes the answer from the line after a bare A:', () => {
    expect(pairs('Q:\nDo you log?\nA:\nYes.')).toEqual([['Do you log?', 'Yes.']]);
  });
});

describe('parsePlainText: errors', () => {
  it('needs both a question and an answer line in every pair', () => {
    expectParseError(() => parse('Q1\nA1\n\nOnly a question?'), 'Pair 2: Must have both question and answer lines');
    expectParseError(() => parse('Q:\nA:'), 'Pair 1: Must have both question and answer lines');
  });

  it('returns no entries for whitespace only', () => {
    expect(parse(' \n\t\n')).toEqual([]);
  });

  it('refuses more than 10,000 pairs', () => {
    const text = Array.from({ length: 10_001 }, (_, i) => `Q${i}\nA${i}`).join('\n\n');
    expectParseError(
      () => parse(text),
      'An import can hold at most 10,000 entries (this one has 10,001). Split the file and import it in parts.',
    );
  });

  it('applies the length limits per pair', () => {
    expectParseError(
      () => parse(`Q1\nA1\n\nQ2\n${'a'.repeat(20_001)}`),
      'Pair 2: Answer is longer than 20,000 characters',
    );
    expectParseError(() => parse(`${'q'.repeat(2001)}\nA`), 'Pair 1: Question is longer than 2,000 characters');
  });
});
