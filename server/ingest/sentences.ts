/**
 * Text normalisation and sentence splitting for the chunker. Kept apart from the packing logic because it is pure
 * language heuristics that may be tuned on its own.
 */

// C0/C1 control characters (except tab and line breaks), soft hyphens, zero-width characters and BOMs. NUL in
// particular must never reach PostgreSQL, which rejects it in text columns; the rest are invisible in a snippet
// and break full-text tokens.
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u200b-\u200d\u2060\ufeff]/g;

/** Splits text into paragraphs (separated by a blank line), each with its whitespace collapsed. */
export function paragraphsOf(text: string): string[] {
  return text
    .replace(INVISIBLE, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n[^\S\n]*\n/)
    .filter((paragraph) => /\S/.test(paragraph));
}

// A line that starts a list item: the line break before it ends a "sentence" even without punctuation, so that a
// list is not treated as one run-on sentence.
const LIST_ITEM = /\n(?=[^\S\n]*(?:[-*•‣◦▪–]|\d{1,3}[.)]|[a-z][.)])\s)/;

// A sentence ends with . ! ? or … (optionally followed by closing quotes or brackets), then whitespace, then
// something that is not a lower-case letter, so "e.g. the" and "approx. twelve" stay together.
const SENTENCE_END = /(?<=[.!?…]["'”’)\]]*)\s+(?=[^\s\p{Ll}])/u;

/** The sentences of a paragraph, whitespace collapsed; never empty strings. */
export function sentencesOf(paragraph: string): string[] {
  const sentences: string[] = [];
  for (const item of paragraph.split(LIST_ITEM)) {
    const collapsed = collapseWhitespace(item);
    if (collapsed === '') continue;
    for (const sentence of collapsed.split(SENTENCE_END)) if (sentence !== '') sentences.push(sentence);
  }
  return sentences;
}

/** Collapses every run of whitespace (including line breaks and non-breaking spaces) to one space, trimmed. */
export function collapseWhitespace(text: string): string {
  // Only what is not already a single space is replaced: with /\s+/ every space between two words is a match, and
  // the millions of matches in a 20 MB paragraph took more than 256 MB to replace.
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}

/**
 * Cuts a word longer than `max` into pieces of at most `max` UTF-16 units, never inside a surrogate pair (a piece
 * may exceed `max` by one unit only when `max` is 1 and the character needs two).
 */
export function splitLongWord(word: string, max: number): string[] {
  const pieces: string[] = [];
  // Slices rather than a string built a character at a time: a 20 MB "word" (a file with no spaces) would otherwise
  // make twenty million one-character strings for the garbage collector.
  let start = 0;
  while (start < word.length) {
    let end = Math.min(word.length, start + max);
    // Never cut between the two halves of a surrogate pair; when max is 1 the pair goes whole.
    if (end < word.length && isHighSurrogate(word.charCodeAt(end - 1)) && isLowSurrogate(word.charCodeAt(end))) {
      end = end - 1 > start ? end - 1 : end + 1;
    }
    pieces.push(word.slice(start, end));
    start = end;
  }
  return pieces;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
