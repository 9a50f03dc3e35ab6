import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SOURCE_MAX_LENGTH, TAG_MAX_LENGTH } from '../constants';
import type { CanonicalAnswerView } from '../schemas/knowledge';
import { canonicalAnswersToCsv } from './csv-export';
import { parseCsv } from './csv';

/**
 * Values hold the characters that stress CSV and the formula guard: separators, quotes, line breaks, and the
 * guarded first characters. They carry no '\r': the importer turns every line break into '\n' (so stored answers
 * have one kind whatever tool saved the file), which makes '\r' the one character that does not come back as is.
 * Library values are trimmed when saved, so generated ones are too.
 */
const unit = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(',', '"', '""', '\n', "'", '=', '-', '+', '@', '\t', ' ', ';', 'é', '😀') },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
);
const trimmedText = (maxLength: number, extra: (s: string) => boolean = () => true) =>
  fc
    .tuple(fc.constantFrom('', '=', '-', "'", "'=", '+', '@', '"'), fc.string({ unit, minLength: 1, maxLength: 30 }))
    .map(([lead, rest]) => (lead + rest).slice(0, maxLength))
    .filter((s) => s.length > 0 && s === s.trim() && !s.includes('\r') && extra(s));

/** ';' separates tags within one cell, so a tag holding one cannot come back whole; the library rarely has any. */
const tag = trimmedText(TAG_MAX_LENGTH, (s) => !s.includes(';'));

const entry = fc.record({
  question: trimmedText(2000),
  answer: trimmedText(20_000),
  tags: fc.uniqueArray(tag, { maxLength: 5 }),
  confidence: fc.integer({ min: 0, max: 100 }),
  source: trimmedText(SOURCE_MAX_LENGTH),
});

type GeneratedEntry = typeof entry extends fc.Arbitrary<infer T> ? T : never;

function view(e: GeneratedEntry, i: number): CanonicalAnswerView {
  return {
    id: `id-${i}`,
    workspaceId: 'ws',
    ...e,
    status: 'approved',
    owner: { id: 'u', username: '=owner' },
    createdBy: null,
    lastVerifiedAt: null,
    lastVerifiedBy: null,
    reviewIntervalDays: 365,
    verifyBy: null,
    needsReverification: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
  };
}

describe('library export → CSV import round trip', () => {
  it('brings back question, answer, tags, confidence and source unchanged', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 8 }), (entries) => {
        const parsed = parseCsv(canonicalAnswersToCsv(entries.map(view)));
        expect(parsed).toEqual(
          entries.map(({ question, answer, tags, confidence, source }) => ({
            question,
            answer,
            tags,
            confidence,
            source,
          })),
        );
      }),
      { numRuns: 200 },
    );
  });
});
