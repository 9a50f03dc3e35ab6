/**
 * Every threshold of the answer engine, in one place (DESIGN §6). Chosen with `npm run bench:quality` on the
 * tuning split of its dataset, never by hand-picking cases from tests.
 */
export const THRESHOLDS = {
  /**
   * A library entry whose confidence (the entry model's probability that it is the answer) is at least this
   * answers the question (canonical, or draft for a draft entry).
   */
  library: 0.7,
  /**
   * The documents answer (type generated) when the document model's probability that the extractive answer
   * answers the question is at least this…
   */
  document: 0.4,
  /** …and the sentences match at least this many distinct terms, so a one-word question cannot ride on one word. */
  documentMinTerms: 2,
  /** Entries shown as top matches in the side panel must score at least this. */
  match: 0.25,
  /** Other entries listed as sources beside the one that answers must score at least this. */
  relatedSource: 0.5,
} as const;
