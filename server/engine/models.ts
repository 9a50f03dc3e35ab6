import type { DocumentFeatures, EntryFeatures } from './features';

/**
 * A conditional-logit model over the library candidates of one question, with "no entry answers it" as an extra
 * option of logit 0: P(entry i) = exp(sᵢ) / (1 + Σ exp(sⱼ)), sᵢ = bias + Σ weight·feature. Its probability is the
 * answer's confidence. Fitted on the tuning split of bench:quality by `npm run bench:fit` (bench/quality/fit.ts),
 * which rewrites this file; do not edit the numbers by hand.
 */
export const ENTRY_MODEL: { bias: number; weights: EntryFeatures } = {
  bias: -4.493,
  weights: {
    questionCoverage: 1.129,
    fullCoverage: 2.332,
    entryCoverage: 1.467,
    trigram: 0.771,
    topicAgreement: 2.009,
    topicsMissing: -1.084,
    noTopics: -0.416,
    novelTerms: -1.413,
    relativeRank: 1.909,
    shortQuestion: 0.114,
    factMissing: -1.084,
  },
};

/**
 * A logistic model of "the extractive answer from the documents answers the question": P = σ(bias + Σ
 * weight·feature). Fitted with ENTRY_MODEL by bench:fit; do not edit the numbers by hand.
 */
export const DOCUMENT_MODEL: { bias: number; weights: DocumentFeatures } = {
  bias: -2.241,
  weights: {
    coverage: 0.269,
    firstCoverage: 0.513,
    passageCoverage: 1.400,
    asksFact: 0.982,
    factsStated: 0.982,
    topicsMissing: -0.366,
    libraryConfidence: -0.601,
  },
};
