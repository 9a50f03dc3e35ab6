import type { DocumentFeatures, EntryFeatures } from './features';

/**
 * A conditional-logit model over the library candidates of one question, with "no entry answers it" as an extra
 * option of logit 0: P(entry i) = exp(sᵢ) / (1 + Σ exp(sⱼ)), sᵢ = bias + Σ weight·feature. Its probability is the
 * answer's confidence. Fitted on the tuning split of bench:quality by `npm run bench:fit` (bench/quality/fit.ts),
 * which rewrites this file; do not edit the numbers by hand.
 */
export const ENTRY_MODEL: { bias: number; weights: EntryFeatures } = {
  bias: -6.412,
  weights: {
    questionCoverage: 0.363,
    fullCoverage: 6.544,
    entryCoverage: 2.907,
    trigram: 4.629,
    topicAgreement: 2.626,
    topicsMissing: -1.422,
    noTopics: 0.638,
    novelTerms: -3.167,
    relativeRank: 2.084,
    shortQuestion: -0.038,
    factMissing: -4.278,
    documentAdvantage: -2.697,
  },
};

/**
 * A logistic model of "the extractive answer from the documents answers the question": P = σ(bias + Σ
 * weight·feature). Fitted with ENTRY_MODEL by bench:fit; do not edit the numbers by hand.
 */
export const DOCUMENT_MODEL: { bias: number; weights: DocumentFeatures } = {
  bias: -7.288,
  weights: {
    coverage: 0.341,
    firstCoverage: 0.857,
    passageCoverage: 9.385,
    asksFact: 2.244,
    factsStated: 2.244,
    topicsMissing: 0.867,
    libraryConfidence: -3.117,
  },
};
