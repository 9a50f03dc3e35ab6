import type { DocumentFeatures, EntryFeatures } from './features';

/**
 * A conditional-logit model over the library candidates of one question, with "no entry answers it" as an extra
 * option of logit 0: P(entry i) = exp(sᵢ) / (1 + Σ exp(sⱼ)), sᵢ = bias + Σ weight·feature. Its probability is the
 * answer's confidence. Fitted on the tuning split of bench:quality by `npm run bench:fit` (bench/quality/fit.ts),
 * which rewrites this file; do not edit the numbers by hand.
 */
export const ENTRY_MODEL: { bias: number; weights: EntryFeatures } = {
  bias: -3.613,
  weights: {
    questionCoverage: 1.329,
    fullCoverage: 2.531,
    entryCoverage: 1.623,
    trigram: 0.757,
    topicAgreement: 2.158,
    topicsMissing: -1.184,
    noTopics: -0.333,
    novelTerms: -1.445,
    relativeRank: 0.948,
    shortQuestion: 0.095,
    factMissing: -1.057,
  },
};

/**
 * A logistic model of "the extractive answer from the documents answers the question": P = σ(bias + Σ
 * weight·feature). Fitted with ENTRY_MODEL by bench:fit; do not edit the numbers by hand.
 */
export const DOCUMENT_MODEL: { bias: number; weights: DocumentFeatures } = {
  bias: -2.208,
  weights: {
    coverage: 0.167,
    firstCoverage: 0.463,
    passageCoverage: 1.421,
    asksFact: 1.071,
    factsStated: 1.071,
    topicsMissing: -0.451,
    libraryConfidence: -0.449,
  },
};
