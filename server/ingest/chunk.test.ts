import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_SECTION_CHARS, chunkBlocks } from './chunk';
import { sentencesOf } from './sentences';
import { policyPage } from '../../test/fixtures/ingest/make-documents';
import type { ExtractedBlock } from './types';

const block = (text: string, page: number | null = null, section: string | null = null): ExtractedBlock => ({
  text,
  page,
  section,
});

function prose(pages: number): ExtractedBlock[] {
  return Array.from({ length: pages }, (_, index) => {
    const { heading, paragraphs } = policyPage(index);
    return block([heading, ...paragraphs].join('\n\n'), index + 1, heading);
  });
}

describe('chunkBlocks', () => {
  it('keeps each chunk on its block’s page and section, with ordinals in order', () => {
    const chunks = chunkBlocks(prose(3));
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual(chunks.map((_, index) => index));
    expect(new Set(chunks.map((chunk) => chunk.page))).toEqual(new Set([1, 2, 3]));
    for (const chunk of chunks) expect(chunk.section).toBe(policyPage((chunk.page ?? 0) - 1).heading);
  });

  it('makes chunks of about the target size, ending at sentence boundaries', () => {
    const chunks = chunkBlocks(prose(5));
    chunks.forEach((chunk, index) => {
      expect(chunk.text.length).toBeLessThanOrEqual(1000);
      expect(chunk.text).toMatch(/[.!?]$/);
      // Well filled: only the last chunk of a section may be short (these sentences are all under 200 characters).
      const lastOfSection = chunks[index + 1]?.section !== chunk.section;
      if (!lastOfSection) expect(chunk.text.length).toBeGreaterThanOrEqual(500);
    });
  });

  it('never returns empty or whitespace-only chunks, and collapses whitespace', () => {
    const chunks = chunkBlocks([
      block('   \n\n \t '),
      block(''),
      block('Spaced    out\t\ttext\r\nacross lines.\u0000\u00ad'),
      block('\n\n\n'),
    ]);
    expect(chunks).toEqual([{ ordinal: 0, page: null, section: null, text: 'Spaced out text across lines.' }]);
  });

  it('carries whole sentences as overlap within a section, never across a section or page change', () => {
    const sentences = Array.from({ length: 30 }, (_, index) => `Sentence number ${index} is about controls.`);
    const chunks = chunkBlocks([block(sentences.join(' '), 1, 'A'), block(sentences.join(' '), 1, 'B')], {
      target: 200,
      overlap: 80,
    });
    for (let index = 1; index < chunks.length; index += 1) {
      const previous = chunks[index - 1];
      const current = chunks[index];
      if (!previous || !current) continue;
      if (previous.section === current.section) {
        // The chunk opens with the previous chunk's last whole sentences, at most 80 characters of them.
        const before = sentencesOf(previous.text);
        const after = sentencesOf(current.text);
        const carried = after.findIndex((sentence) => !before.includes(sentence));
        expect(carried).toBeGreaterThan(0);
        expect(after.slice(0, carried)).toEqual(before.slice(-carried));
        expect(after.slice(0, carried).join(' ').length).toBeLessThanOrEqual(80);
      } else {
        expect(current.text.startsWith('Sentence number 0 ')).toBe(true);
      }
      expect(current.text.length).toBeLessThanOrEqual(200);
    }
    expect(chunks.filter((chunk) => chunk.section === 'B')[0]?.text.startsWith('Sentence number 0 ')).toBe(true);
  });

  it('packs consecutive blocks of one section (spreadsheet rows) together', () => {
    const rows = Array.from({ length: 20 }, (_, index) => block(`Control: C-${index}; Answer: Yes`, null, 'Sheet1'));
    const chunks = chunkBlocks(rows);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.text.split('\n')).toHaveLength(20);
  });

  it('prefers to end a chunk at a paragraph boundary', () => {
    const paragraph = (word: string) => `${word} `.repeat(60).trim() + '.'; // ~ 300-400 characters, one sentence
    const chunks = chunkBlocks([block([paragraph('alpha'), paragraph('beta'), paragraph('gamma')].join('\n\n'))], {
      target: 800,
      overlap: 0,
    });
    expect(chunks.map((chunk) => chunk.text.split('\n').length)).toEqual([2, 1]);
  });

  it('cuts a sentence longer than the target between words, and a word longer than the target inside it', () => {
    const long = 'word '.repeat(100).trim();
    for (const chunk of chunkBlocks([block(long)], { target: 50 })) {
      expect(chunk.text.length).toBeLessThanOrEqual(50);
      expect(chunk.text.split(' ').every((word) => word === 'word')).toBe(true);
    }
    const giant = 'x'.repeat(120);
    expect(chunkBlocks([block(giant)], { target: 50 }).map((chunk) => chunk.text)).toEqual([
      'x'.repeat(50),
      'x'.repeat(50),
      'x'.repeat(20),
    ]);
  });

  it('rejects nonsensical options', () => {
    expect(() => chunkBlocks([], { target: 0 })).toThrow(RangeError);
    expect(() => chunkBlocks([], { overlap: -1 })).toThrow(RangeError);
  });
});

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('chunkBlocks properties', () => {
  const word = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9'",;:()-]{1,40}[.!?]?$/),
    // Non-ASCII letters and astral characters (two UTF-16 units), which must never be cut in half.
    fc.string({ unit: fc.constantFrom('é', 'ß', 'Ж', '😀', '漢', 'a'), minLength: 1, maxLength: 50 }),
  );
  const separator = fc.constantFrom(' ', ' ', ' ', '  ', '\n', '\n\n', '\t', ' \n \n ');
  const text = fc
    .array(fc.tuple(word, separator), { maxLength: 80, size: 'medium' })
    .map((parts) => parts.map(([w, s]) => w + s).join(''));
  const blocks = fc.array(
    fc.record({
      text,
      page: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
      section: fc.option(fc.constantFrom('Intro', 'Scope', 'Controls'), { nil: null }),
    }),
    { maxLength: 8 },
  );
  // Small targets too, so that long words (cut into pieces) and long sentences (cut between words) come up often.
  const options = fc.record({
    target: fc.oneof(fc.integer({ min: 4, max: 30 }), fc.integer({ min: 31, max: 400 })),
    overlap: fc.integer({ min: 0, max: 200 }),
  });

  it('makes non-empty chunks within the target, on their block’s page and section, losing no word', () => {
    fc.assert(
      fc.property(blocks, options, (input, opts) => {
        const chunks = chunkBlocks(input, opts);
        const inputWords: string[] = [];
        const places = new Set<string>();
        for (const { text: value, page, section } of input) {
          const words = value.split(/\s+/).filter((w) => w !== '');
          inputWords.push(...words);
          if (words.length > 0) places.add(JSON.stringify([page, section]));
        }
        const outputWords: string[] = [];
        chunks.forEach((chunk, index) => {
          expect(chunk.ordinal).toBe(index);
          expect(chunk.text.trim()).not.toBe('');
          expect(chunk.text).toBe(chunk.text.trim());
          // Longer only when one word is longer than the target; then the chunk is a piece of that word alone.
          if (chunk.text.length > opts.target) throw new Error(`chunk of ${chunk.text.length} > ${opts.target}`);
          expect(places.has(JSON.stringify([chunk.page, chunk.section]))).toBe(true);
          outputWords.push(...chunk.text.split(/\s+/));
        });
        // Every input word appears, in order (overlap repeats some; words longer than the target come in pieces).
        let cursor = 0;
        for (const w of inputWords) {
          if (w.length > opts.target) continue;
          while (cursor < outputWords.length && outputWords[cursor] !== w) cursor += 1;
          expect(cursor, `word "${w}" missing or out of order`).toBeLessThan(outputWords.length);
          cursor += 1;
        }
        // …and nothing else appears: every output word is an input word, or a piece of a too-long one.
        const known = new Set(inputWords);
        const longWords = inputWords.filter((w) => w.length > opts.target);
        for (const w of outputWords) {
          expect(known.has(w) || longWords.some((long) => long.includes(w))).toBe(true);
          expect(w).not.toMatch(LONE_SURROGATE); // no surrogate pair cut in half
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps chunks of different pages or sections apart and in block order', () => {
    fc.assert(
      fc.property(blocks, options, (input, opts) => {
        const chunks = chunkBlocks(input, opts);
        // The sequence of (page, section) runs in the output follows the input's, without new ones.
        const runs = (items: { page: number | null; section: string | null }[]) =>
          items
            .map((item) => JSON.stringify([item.page, item.section]))
            .filter((key, index, all) => index === 0 || all[index - 1] !== key);
        const nonEmpty = input.filter((item) => /\S/.test(item.text));
        const expected = runs(nonEmpty);
        const actual = runs(chunks);
        let cursor = 0;
        for (const key of actual) {
          while (cursor < expected.length && expected[cursor] !== key) cursor += 1;
          expect(cursor).toBeLessThan(expected.length);
          cursor += 1;
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('chunkBlocks on extreme input', () => {
  it('cuts a section name longer than 200 characters at a word, so each chunk does not carry a copy of a huge one', () => {
    const heading = `Access ${'control '.repeat(300_000)}`;
    const chunks = chunkBlocks([block(`${heading}\n\nKeys are rotated yearly. `.repeat(3), null, heading)]);
    expect(chunks.length).toBeGreaterThan(2_000);
    const sections = new Set(chunks.map((chunk) => chunk.section));
    expect(sections.size).toBe(1);
    const [section] = [...sections];
    expect(section?.length).toBeLessThanOrEqual(MAX_SECTION_CHARS);
    expect(section).toMatch(/^Access control control .* control…$/);
    expect(chunkBlocks([block('Short.', 1, 'Short heading')])[0]?.section).toBe('Short heading');
  });

  it('packs a paragraph of a million words without overflowing the call stack', () => {
    const chunks = chunkBlocks([block('word '.repeat(1_000_000))]);
    expect(chunks.length).toBe(Math.ceil((1_000_000 * 5) / 1_000));
  });
});
