import { describe, expect, it } from 'vitest';
import { expectParseError } from './expect-parse-error';
import { parseJson } from './json';

const now = new Date('2025-01-31T14:05:09Z');
const parse = (content: string) => parseJson(content, { now });
const json = (value: unknown) => parse(JSON.stringify(value));

describe('parseJson: shapes', () => {
  it('reads an array of Q&A objects with the JSON defaults', () => {
    expect(json([{ question: ' Do you use SSO? ', answer: ' Yes ' }])).toEqual([
      { question: 'Do you use SSO?', answer: 'Yes', tags: [], source: 'JSON import 2025-01-31 14:05', confidence: 85 },
    ]);
  });

  it('reads an object with an entries array', () => {
    expect(
      json({
        entries: [
          { question: 'Q1', answer: 'A1' },
          { question: 'Q2', answer: 'A2' },
        ],
      }),
    ).toHaveLength(2);
  });

  it('reads a single object as one entry', () => {
    expect(json({ question: 'Q', answer: 'A' })).toHaveLength(1);
  });

  it('returns no entries for an empty array', () => {
    expect(json([])).toEqual([]);
  });

  it.each([['42'], ['"text"'], ['null'], ['true']])('refuses %s', (content) => {
    expectParseError(() => parse(content), 'JSON must be an object or an array of Q&A objects');
  });

  it('strips a leading byte-order mark', () => {
    expect(parse('\uFEFF[{"question":"Q","answer":"A"}]')).toHaveLength(1);
  });
});

describe('parseJson: fields', () => {
  it('keeps string tags, trimmed, without empties and repeats', () => {
    expect(json([{ question: 'Q', answer: 'A', tags: [' sso ', 'sso', '', 3, null, 'mfa'] }])[0]?.tags).toEqual([
      'sso',
      'mfa',
    ]);
  });

  it('ignores tags that are not an array', () => {
    expect(json([{ question: 'Q', answer: 'A', tags: 'sso;mfa' }])[0]?.tags).toEqual([]);
  });

  it('reads a confidence 0–100, rounded, else 85', () => {
    const confidences = [70, 99.6, 0, 100, 101, -1, '90', null];
    const entries = json(confidences.map((confidence, i) => ({ question: `Q${i}`, answer: 'A', confidence })));
    expect(entries.map((e) => e.confidence)).toEqual([70, 100, 0, 100, 85, 85, 85, 85]);
  });

  it('reads a non-blank source, else the default label', () => {
    const entries = json([
      { question: 'Q1', answer: 'A', source: ' SOC 2 ' },
      { question: 'Q2', answer: 'A', source: '  ' },
      { question: 'Q3', answer: 'A', source: 7 },
    ]);
    expect(entries.map((e) => e.source)).toEqual([
      'SOC 2',
      'JSON import 2025-01-31 14:05',
      'JSON import 2025-01-31 14:05',
    ]);
  });

  it('keeps markup as plain text', () => {
    expect(json([{ question: 'Q', answer: '<script>alert(1)</script>' }])[0]?.answer).toBe('<script>alert(1)</script>');
  });
});

describe('parseJson: errors', () => {
  it('reports malformed JSON with the parser message', () => {
    let message = '';
    try {
      JSON.parse('[{"question": }]');
    } catch (error) {
      message = (error as Error).message;
    }
    expectParseError(() => parse('[{"question": }]'), `Invalid JSON: ${message}`);
  });

  it.each([
    [[{ question: 'Q', answer: 'A' }, { question: 'Q2' }], 'Entry 2'],
    [[{ question: '  ', answer: 'A' }], 'Entry 1'],
    [[{ question: 'Q', answer: 42 }], 'Entry 1'],
    [['Q: A'], 'Entry 1'],
    [[null], 'Entry 1'],
    [{ entries: 'none' }, 'Entry 1'],
  ])('needs a question and an answer in every entry: %j', (value, where) => {
    expectParseError(() => json(value), `${where}: Missing required question or answer field`);
  });

  it('refuses more than 10,000 entries', () => {
    const entries = Array.from({ length: 10_001 }, (_, i) => ({ question: `Q${i}`, answer: 'A' }));
    expectParseError(
      () => json(entries),
      'An import can hold at most 10,000 entries (this one has 10,001). Split the file and import it in parts.',
    );
  });

  it('applies the length and tag limits per entry', () => {
    expectParseError(
      () =>
        json([
          { question: 'Q', answer: 'A' },
          { question: 'q'.repeat(2001), answer: 'A' },
        ]),
      'Entry 2: Question is longer than 2,000 characters',
    );
    expectParseError(
      () => json([{ question: 'Q', answer: 'a'.repeat(20_001) }]),
      'Entry 1: Answer is longer than 20,000 characters',
    );
    expectParseError(
      () => json([{ question: 'Q', answer: 'A', tags: ['t'.repeat(61)] }]),
      `Entry 1: Tag "${'t'.repeat(20)}…" is longer than 60 characters`,
    );
    expectParseError(
      () => json([{ question: 'Q', answer: 'A', tags: Array.from({ length: 31 }, (_, i) => `t${i}`) }]),
      'Entry 1: At most 30 tags per entry',
    );
  });
});
