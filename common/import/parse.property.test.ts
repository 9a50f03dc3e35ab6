import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImportEntry } from '../schemas/knowledge';
import { parseImport, UNEXPECTED_PARSE_FAILURE } from './parse';
import { IMPORT_FORMATS, ImportParseError, type ImportFormat } from './types';

const NUM_RUNS = 200;
const now = new Date('2025-01-31T14:05:09Z');

/** The parser contract: entries the server's ImportEntry schema accepts, or an ImportParseError; nothing else. */
function expectEntriesOrParseError(format: ImportFormat, content: string): void {
  let entries;
  try {
    entries = parseImport(format, content, { now });
  } catch (error) {
    expect(error).toBeInstanceOf(ImportParseError);
    expect((error as Error).message.startsWith(UNEXPECTED_PARSE_FAILURE)).toBe(false);
    return;
  }
  expect(entries.length).toBeGreaterThan(0);
  for (const entry of entries) {
    expect(ImportEntry.safeParse(entry).success).toBe(true);
    expect(entry.question).toBe(entry.question.trim());
    expect(entry.answer).toBe(entry.answer.trim());
    expect(entry.question).not.toBe('');
    expect(entry.answer).not.toBe('');
    expect(new Set(entry.tags).size).toBe(entry.tags.length);
  }
}

/** Characters that matter to at least one of the formats, so near-valid inputs hit the interesting branches. */
const SPECIAL = [',', ';', '"', "'", '\n', '\r', '\r\n', '\t', ' ', '=', '-', '@', '%', ':', '.', 'Q', 'A', 'q', 'a'];
const specialOrAny = fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }));
const cellText = fc.string({ unit: specialOrAny, maxLength: 12 });
const filledText = fc.oneof(cellText, fc.string({ minLength: 1, maxLength: 12 }));
const HEADER_NAMES = [
  'question',
  'Answer',
  'tags',
  'Source',
  'confidence',
  'Comments',
  'Question ID',
  'Vendor Response',
];

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: specialOrAny, maxLength: 200 }),
);

/** Question and answer columns at random places among some of the optional ones. */
const validHeader = fc
  .tuple(fc.shuffledSubarray(HEADER_NAMES.slice(2)), fc.nat(), fc.nat())
  .map(([others, at, at2]) => {
    const header = [...others];
    header.splice(at % (header.length + 1), 0, 'question');
    header.splice(at2 % (header.length + 1), 0, 'Answer');
    return header;
  });

const quoted = (cell: string) => `"${cell.replace(/"/g, '""')}"`;

/**
 * A header from the known names (or noise) over rows of random cells, with any line ending. Mostly well-formed
 * (cells that need quotes get them) so that many inputs parse; otherwise cells are quoted at random.
 */
const csvish = fc
  .oneof(
    { weight: 3, arbitrary: validHeader },
    { weight: 1, arbitrary: fc.array(fc.oneof(fc.constantFrom(...HEADER_NAMES), cellText), { maxLength: 5 }) },
  )
  .chain((header) =>
    fc.record({
      header: fc.constant(header),
      // Rows about as wide as the header, a cell short or long now and then.
      rows: fc.array(
        fc.array(fc.tuple(cellText, fc.boolean()), {
          minLength: Math.max(0, header.length - 1),
          maxLength: header.length + 1,
        }),
        { maxLength: 8 },
      ),
      wellFormed: fc.boolean(),
      newline: fc.constantFrom('\n', '\r\n', '\r'),
      bom: fc.boolean(),
    }),
  )
  .map(({ header, rows, wellFormed, newline, bom }) => {
    const cell = ([text, quote]: [string, boolean]) =>
      (wellFormed ? /[",\r\n]/.test(text) : quote) ? quoted(text) : text;
    const lines = [header.join(','), ...rows.map((row) => row.map(cell).join(','))];
    return (bom ? '\uFEFF' : '') + lines.join(newline);
  });

const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.jsonValue() });

const entryFields = {
  question: maybe(filledText),
  answer: maybe(filledText),
  tags: maybe(fc.array(fc.oneof(cellText, fc.jsonValue()), { maxLength: 4 })),
  confidence: fc.oneof(fc.double(), fc.integer({ min: -10, max: 110 }), fc.jsonValue()),
  source: maybe(cellText),
};

/** JSON of random values, and of objects that look like entries with fields of the right or the wrong type. */
const jsonish = fc.oneof(
  fc.json(),
  fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: fc.record(entryFields, { requiredKeys: ['question', 'answer'] }) },
        { weight: 1, arbitrary: fc.record(entryFields, { requiredKeys: [] }) },
      ),
      { maxLength: 6 },
    )
    .chain((list) => fc.constantFrom<unknown>(list, { entries: list }, list[0] ?? null))
    .map((value) => JSON.stringify(value) ?? ''),
);

/** Blocks of short lines, some with Q:/A: prefixes, separated by blank or whitespace-only lines. */
const textish = fc
  .array(
    fc.array(
      fc.tuple(fc.constantFrom('', 'Q: ', 'A: ', 'q.', 'A.', ' '), cellText).map(([prefix, line]) => prefix + line),
      { minLength: 1, maxLength: 4 },
    ),
    { maxLength: 6 },
  )
  .chain((blocks) =>
    fc.constantFrom('\n\n', '\r\n\r\n', '\n \t\n').map((gap) => blocks.map((lines) => lines.join('\n')).join(gap)),
  );

describe('parseImport on arbitrary input: entries ImportEntry accepts, or an ImportParseError', () => {
  it.each(IMPORT_FORMATS)('arbitrary text as %s', (format) => {
    fc.assert(
      fc.property(anyText, (content) => expectEntriesOrParseError(format, content)),
      { numRuns: NUM_RUNS },
    );
  });

  it('CSV-like files of random cells', () => {
    fc.assert(
      fc.property(csvish, (content) => expectEntriesOrParseError('csv', content)),
      { numRuns: NUM_RUNS },
    );
  });

  it('JSON of random values and near-valid entries', () => {
    fc.assert(
      fc.property(jsonish, (content) => expectEntriesOrParseError('json', content)),
      { numRuns: NUM_RUNS },
    );
  });

  it('plain text of random blocks', () => {
    fc.assert(
      fc.property(textish, (content) => expectEntriesOrParseError('manual', content)),
      { numRuns: NUM_RUNS },
    );
  });

  it('any near-valid input in any format', () => {
    fc.assert(
      fc.property(fc.constantFrom(...IMPORT_FORMATS), fc.oneof(csvish, jsonish, textish), expectEntriesOrParseError),
      { numRuns: NUM_RUNS },
    );
  });
});
