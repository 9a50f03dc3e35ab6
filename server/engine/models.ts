import type { DocumentFeatures, EntryFeatures } from './features';

/**
 * A conditional-logit model over the library candidates of one question, with "no entry answers it" as an extra
 * option of logit 0: P(entry i) = exp(sᵢ) / (1 + Σ exp(sⱼ)), sᵢ = bias + Σ weight·feature. Its probability is the
 * answer's confidence. Fitted on the tuning split of bench:quality by `npm run bench:fit` (bench/quality/fit.ts),
 * which rewrites this file; do not edit the numbers by hand.
 */
export const ENTRY_MODEL: { bias: number; weights: EntryFeatures } = {
  bias: -6.392,
  weights: {
    questionCoverage: 0.399,
    fullCoverage: 5.552,
    entryCoverage: 2.538,
    trigram: 2.448,
    topicAgreement: 4.706,
    topicsMissing: -0.466,
    noTopics: -0.211,
    novelTerms: -3.359,
    relativeRank: 1.808,
    shortQuestion: -0.835,
    factMissing: -1.85,
    documentAdvantage: -3.899,
  },
};

/**
 * A logistic model of "the extractive answer from the documents answers the question": P = σ(bias + Σ
 * weight·feature). Fitted with ENTRY_MODEL by bench:fit; do not edit the numbers by hand.
 */
export const DOCUMENT_MODEL: { bias: number; weights: DocumentFeatures } = {
  bias: -3.148,
  weights: {
    coverage: 0.637,
    firstCoverage: 1.499,
    passageCoverage: 3.284,
    asksFact: 1.378,
    factsStated: 1.378,
    topicsMissing: -1.087,
    libraryConfidence: -0.153,
  },
};
