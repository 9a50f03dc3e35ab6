/**
 * Every threshold of the answer engine, in one place (DESIGN §6). Chosen with `npm run bench:quality` on the
 * tuning split of its dataset, never by hand-picking cases from tests.
 */
export const THRESHOLDS = {
  /** A library entry scoring at least this answers the question (canonical, or draft for a draft entry). */
  library: 0.4,
  /** A document sentence set covering at least this share of the question's terms gives a generated answer. */
  document: 0.7,
  /** …and must match at least this many distinct terms, so a one-word question cannot ride on one word. */
  documentMinTerms: 2,
  /**
   * A library entry scoring at least this (but under `library`) is a near miss: the question is probably about
   * that entry's topic, so document sentences are not offered in its place; the answer needs review instead.
   */
  libraryNearMiss: 0.25,
  /** Entries shown as top matches in the side panel must score at least this. */
  match: 0.25,
} as const;
