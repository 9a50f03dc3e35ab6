/**
 * Every threshold of the answer engine, in one place (ARCHITECTURE §6). `npm run bench:fit` fits the models on the
 * tuning split of bench:quality and prints, for each candidate threshold, the right and wrong answers each tuning
 * question gets from a model fitted without it (4-fold); the value kept is the one with the most right answers
 * less three times the wrong ones (a wrong answer costs a reviewer more than a 'Needs Review'). Never chosen on
 * the test split or by hand-picking cases from tests.
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
  document: 0.6,
  /** …and the sentences match at least this many distinct terms, so a one-word question cannot ride on one word. */
  documentMinTerms: 2,
  /** Entries shown as top matches in the side panel must score at least this. */
  match: 0.25,
  /** Other entries listed as sources beside the one that answers must score at least this. */
  relatedSource: 0.5,
} as const;
