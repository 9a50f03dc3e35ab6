import type { DocumentFeatures, EntryFeatures } from './features';

/**
 * A conditional-logit model over the library candidates of one question, with "no entry answers it" as an extra
 * option of logit 0: P(entry i) = exp(sᵢ) / (1 + Σ exp(sⱼ)), sᵢ = bias + Σ weight·feature. Its probability is the
 * answer's confidence. Fitted on the tuning split of bench:quality by `npm run bench:fit` (bench/quality/fit.ts),
 * which rewrites this file; do not edit the numbers by hand.
 */
export const ENTRY_MODEL: { bias: number; weights: EntryFeatures } = {
  bias: -4.870,
  weights: {
    questionCoverage: 1.711,
    fullCoverage: 6.436,
    entryCoverage: 3.154,
    trigram: 3.910,
    topicAgreement: 3.644,
    topicsMissing: -1.379,
    noTopics: -1.867,
    novelTerms: -5.470,
    relativeRank: 0.008,
    shortQuestion: 0.324,
    factMissing: -4.072,
    documentAdvantage: -2.189,
  },
};

/**
 * A logistic model of "the extractive answer from the documents answers the question": P = σ(bias + Σ
 * weight·feature). Fitted with ENTRY_MODEL by bench:fit; do not edit the numbers by hand.
 */
export const DOCUMENT_MODEL: { bias: number; weights: DocumentFeatures } = {
  bias: -4.401,
  weights: {
    coverage: 0.751,
    firstCoverage: 1.302,
    passageCoverage: 3.809,
    asksFact: 1.787,
    factsStated: 1.787,
    topicsMissing: -0.154,
    libraryConfidence: -0.488,
  },
};
