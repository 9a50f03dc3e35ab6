import { paragraphsOf, sentencesOf, splitLongWord } from './sentences';
import type { Chunk, ExtractedBlock } from './types';

/** About one paragraph or two: long enough to carry an answer, short enough for full-text rank to stay sharp. */
export const DEFAULT_CHUNK_TARGET = 1000;
/** Carried into the next chunk (whole sentences) so an answer that straddles a boundary is found in one piece. */
export const DEFAULT_CHUNK_OVERLAP = 150;

/**
 * The longest section name a chunk carries. A section is a heading, and every chunk under it carries its own copy
 * (in the database, and in the message from the extraction thread, which copies strings one by one): a 2 MB "heading"
 * over 2,000 chunks was 4 GB, enough to crash the process that received it.
 */
export const MAX_SECTION_CHARS = 200;

/** `target`: the most characters a chunk may hold; `overlap`: the most characters carried into the next chunk. */
export type ChunkOptions = { target?: number; overlap?: number };

// A unit is what the packer places whole: a sentence, or — for a sentence longer than the target — a word (or a
// piece of a word longer than the target). Only whole sentences may be repeated as overlap.
type Unit = { text: string; paragraphStart: boolean; sentence: boolean; paragraphLength: number };

type Segment = { page: number | null; section: string | null; texts: string[] };

/**
 * Cuts blocks into chunks of at most `target` characters (a word longer than the target is cut into target-sized
 * pieces, the only place a word is ever cut). Chunks end at paragraph or sentence boundaries where possible, never
 * inside a word otherwise, and never span a change of page or section; consecutive blocks of the same page and
 * section (spreadsheet rows, paragraphs) are packed together. A chunk starts with up to `overlap` characters of
 * whole sentences from the previous chunk of the same page and section. Whitespace is collapsed (paragraphs are
 * kept apart by one line break); no chunk is empty; ordinals run 0..n-1.
 */
export function chunkBlocks(blocks: readonly ExtractedBlock[], opts: ChunkOptions = {}): Chunk[] {
  const target = opts.target ?? DEFAULT_CHUNK_TARGET;
  const requestedOverlap = opts.overlap ?? DEFAULT_CHUNK_OVERLAP;
  if (!Number.isInteger(target) || target < 1) throw new RangeError('The chunk target must be a positive integer.');
  if (!Number.isInteger(requestedOverlap) || requestedOverlap < 0)
    throw new RangeError('The chunk overlap must be a non-negative integer.');
  // An overlap of half a chunk or more would make chunks mostly repeats of each other.
  const overlap = Math.min(requestedOverlap, Math.floor(target / 2));

  const chunks: Chunk[] = [];
  for (const segment of segmentsOf(blocks)) {
    for (const text of pack(unitsOf(segment.texts, target), target, overlap)) {
      chunks.push({ ordinal: chunks.length, page: segment.page, section: segment.section, text });
    }
  }
  return chunks;
}

function segmentsOf(blocks: readonly ExtractedBlock[]): Segment[] {
  const segments: Segment[] = [];
  let current: Segment | undefined;
  for (const block of blocks) {
    if (current && current.page === block.page && current.section === sectionName(block.section)) {
      current.texts.push(block.text);
    } else {
      current = { page: block.page, section: sectionName(block.section), texts: [block.text] };
      segments.push(current);
    }
  }
  return segments;
}

/** A section name of at most MAX_SECTION_CHARS characters: a longer one is cut at a word and ends with "…". */
function sectionName(section: string | null): string | null {
  if (section === null || section.length <= MAX_SECTION_CHARS) return section;
  const collapsed = section
    .slice(0, MAX_SECTION_CHARS * 4)
    .replace(/\s+/g, ' ')
    .trim();
  if (collapsed.length <= MAX_SECTION_CHARS && section.length <= MAX_SECTION_CHARS * 4) return collapsed;
  let head = collapsed.slice(0, MAX_SECTION_CHARS - 1);
  const space = head.lastIndexOf(' ');
  if (space > MAX_SECTION_CHARS / 2) head = head.slice(0, space);
  // Never end on half of a surrogate pair.
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1);
  return `${head.trimEnd()}…`;
}

/**
 * The units of the texts, one at a time: a 20 MB paragraph without a full stop is millions of word units, and
 * making them all before packing took half a gigabyte. A paragraph's first unit carries the paragraph's length,
 * which pack() only compares with the target, so a paragraph holding a sentence longer than the target (and
 * therefore longer than the target itself) is simply "too long" without its words being counted first.
 */
function* unitsOf(texts: readonly string[], target: number): Generator<Unit> {
  for (const text of texts) {
    for (const paragraph of paragraphsOf(text)) {
      const sentences = sentencesOf(paragraph);
      const tooLong = sentences.some((sentence) => sentence.length > target);
      let paragraphLength = tooLong ? Number.POSITIVE_INFINITY : 0;
      if (!tooLong)
        for (const sentence of sentences) paragraphLength += (paragraphLength === 0 ? 0 : 1) + sentence.length;
      let paragraphStart = true;
      const unit = (piece: string, sentence: boolean): Unit => {
        const made = { text: piece, paragraphStart, sentence, paragraphLength: paragraphStart ? paragraphLength : 0 };
        paragraphStart = false;
        return made;
      };
      for (const sentence of sentences) {
        if (sentence.length <= target) {
          yield unit(sentence, true);
          continue;
        }
        for (const word of wordsOf(sentence)) {
          if (word.length <= target) yield unit(word, false);
          else for (const piece of splitLongWord(word, target)) yield unit(piece, false);
        }
      }
    }
  }
}

/** The words of a sentence whose whitespace is already collapsed to single spaces, one at a time. */
function* wordsOf(sentence: string): Generator<string> {
  let start = 0;
  for (let space = sentence.indexOf(' '); space !== -1; space = sentence.indexOf(' ', start)) {
    yield sentence.slice(start, space);
    start = space + 1;
  }
  yield sentence.slice(start);
}

function pack(units: Iterable<Unit>, target: number, overlap: number): string[] {
  const chunks: string[] = [];
  let current: Unit[] = [];
  let length = 0; // of `current` as rendered
  let carriedLength = 0; // of the overlap at its start
  let fresh = 0; // units not carried over: a chunk with none would only repeat its predecessor

  for (const unit of units) {
    const extended = appendLength(length, current.length, unit);
    const freshLength = length - carriedLength;
    // Prefer to end at a paragraph boundary when the chunk is already substantial and the next paragraph would not
    // fit whole, rather than filling it with that paragraph's first sentences.
    const paragraphBreak =
      unit.paragraphStart && freshLength >= target / 2 && appendLength(length, current.length, unit, true) > target;
    if (fresh > 0 && (extended > target || paragraphBreak)) {
      chunks.push(render(current));
      current = carryOver(current, overlap);
      length = joinedLength(current);
      carriedLength = length;
      fresh = 0;
    }
    if (current.length > 0 && appendLength(length, current.length, unit) > target) {
      // The overlap and the next unit do not fit together: the new content matters more.
      current = [];
      length = 0;
      carriedLength = 0;
    }
    length = appendLength(length, current.length, unit);
    current.push(unit);
    fresh += 1;
  }
  if (fresh > 0) chunks.push(render(current));
  return chunks;
}

function appendLength(length: number, count: number, unit: Unit, wholeParagraph = false): number {
  const added = wholeParagraph ? unit.paragraphLength : unit.text.length;
  return count === 0 ? added : length + 1 + added;
}

function joinedLength(units: readonly Unit[]): number {
  return units.reduce((sum, unit, index) => sum + unit.text.length + (index === 0 ? 0 : 1), 0);
}

/** The longest run of whole sentences at the end of a chunk that fits in `overlap` characters. */
function carryOver(units: readonly Unit[], overlap: number): Unit[] {
  let start = units.length;
  let length = 0;
  while (start > 0) {
    const unit = units[start - 1];
    if (!unit || !unit.sentence) break;
    const next = length === 0 ? unit.text.length : length + 1 + unit.text.length;
    if (next > overlap) break;
    length = next;
    start -= 1;
  }
  return units.slice(start);
}

function render(units: readonly Unit[]): string {
  return units.map((unit, index) => (index === 0 ? '' : unit.paragraphStart ? '\n' : ' ') + unit.text).join('');
}
