/**
 * How embedding similarity counts as evidence, used only when an embedding endpoint is configured (the lexical
 * ranker is untouched otherwise). Raw cosine similarity means different things for different models, so it is
 * mapped through one logistic curve: VECTOR_MIDPOINT is the similarity at which the embedding alone makes an entry
 * an even bet, VECTOR_SLOPE how fast that changes. The values suit OpenAI-style models (text-embedding-3-*,
 * nomic-embed-text: paraphrases of one question ≳ 0.85, related questions 0.6–0.8).
 *
 * Not fitted yet: bench:quality runs without an embedding endpoint. Move them to thresholds.ts once a benchmark
 * with a real model has chosen them.
 */
export const VECTOR_MIDPOINT = 0.85;
export const VECTOR_SLOPE = 25;

/** 0–1: how strongly embedding similarity alone says "this is about the same thing". */
export function vectorEvidence(similarity: number): number {
  return 1 / (1 + Math.exp(-VECTOR_SLOPE * (similarity - VECTOR_MIDPOINT)));
}
