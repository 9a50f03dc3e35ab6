import { z } from 'zod';
import fitted from '../data/models.json' with { type: 'json' };
import {
  ANSWER_FEATURES,
  DOCUMENT_FEATURES,
  ENTRY_FEATURES,
  type AnswerFeatures,
  type DocumentFeatures,
  type EntryFeatures,
} from './features';

/**
 * The engine's decision models, fitted by `npm run bench:fit` (bench/quality/fit.ts) on the bench:quality companies
 * and written to data/models.json; never edited by hand.
 *
 * - The entry model is a conditional logit over one question's library candidates, with "no entry answers it" as
 *   an extra option of logit 0: P(entry i) = exp(sᵢ) / (1 + Σ exp(sⱼ)), sᵢ = bias + Σ weight·feature. Its
 *   probability is the answer's confidence; the entry answers when it reaches `thresholds.library`.
 * - The answer model (dense only) recalibrates the best entry's confidence: a logistic model over ANSWER_FEATURES,
 *   where the lexical ranker and the embedding agreeing, and by how much the best leads, say more about whether it
 *   is right than its share of the conditional logit alone. Without it the conditional logit's probability stands.
 * - The document model is a logistic model of "the extractive answer answers the question", answering at
 *   `thresholds.document`.
 *
 * Two sets: `dense` when an embedder gives the vector features, `lexical` when retrieval is lexical only (no model
 * installed, or EMBEDDING_PROVIDER=none): the features mean different things in the two worlds, so each is fitted
 * on its own.
 */
// A feature added after a set was fitted weighs 0 in it until the next fit.
const weightsOf = <T extends readonly string[]>(names: T) =>
  z.object(
    Object.fromEntries(names.map((n) => [n, z.number().default(0)])) as Record<T[number], z.ZodDefault<z.ZodNumber>>,
  );

const Models = z.object({
  entry: z.object({ bias: z.number(), weights: weightsOf(ENTRY_FEATURES) }),
  document: z.object({ bias: z.number(), weights: weightsOf(DOCUMENT_FEATURES) }),
  answer: z.object({ bias: z.number(), weights: weightsOf(ANSWER_FEATURES) }).optional(),
  thresholds: z.object({ library: z.number().min(0).max(1), document: z.number().min(0).max(1) }),
});

export type EngineModels = {
  entry: { bias: number; weights: EntryFeatures };
  document: { bias: number; weights: DocumentFeatures };
  answer?: { bias: number; weights: AnswerFeatures };
  thresholds: { library: number; document: number };
};

const parsed = z.object({ lexical: Models, dense: Models }).parse(fitted);
export const LEXICAL_MODELS: EngineModels = parsed.lexical;
export const DENSE_MODELS: EngineModels = parsed.dense;

/** The lexical entry and document models, as the engine uses them without embeddings. */
export const ENTRY_MODEL = LEXICAL_MODELS.entry;
export const DOCUMENT_MODEL = LEXICAL_MODELS.document;
