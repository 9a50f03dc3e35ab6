import type { Extract } from './compose';
import { DOCUMENT_MODEL, ENTRY_MODEL, LEXICAL_MODELS, type EngineModels } from './models';
import {
  ANSWER_FEATURES,
  DOCUMENT_FEATURES,
  answerFeatures,
  ENTRY_FEATURES,
  documentFeatures,
  entryFeatures,
  profileQuestion,
  type DocumentFeatures,
  type EntryFeatures,
} from './features';
import type { EntryCandidate } from '../retrieval/retrieve';
import type { TermWeights } from '../retrieval/library-index';
import { termsOf } from '../text/thesaurus';

export type EntryScore = {
  candidate: EntryCandidate;
  features: EntryFeatures;
  /** The model's logit for this entry; ranking order. */
  logit: number;
  /** How well this entry alone matches, 0–1 (the logistic of its logit): the side panel's match %. */
  score: number;
  /**
   * The probability that this entry is the answer, given the other candidates and the chance that none is: the
   * answer's confidence. Two near-equal entries split it, so an ambiguous question is not answered with certainty.
   */
  confidence: number;
};

const uniform: TermWeights = { idf: () => 1, known: () => true };

export function entryLogit(f: EntryFeatures, model = ENTRY_MODEL): number {
  let s = model.bias;
  for (const name of ENTRY_FEATURES) s += model.weights[name] * f[name];
  return s;
}

export const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** The features of every candidate of one question, exactly as the ranker computes them (bench:fit uses this). */
export function candidateFeatures(
  question: string,
  candidates: EntryCandidate[],
  w: TermWeights = uniform,
  documentPassage = 0,
): EntryFeatures[] {
  const profile = profileQuestion(question);
  const bestRank = Math.max(0, ...candidates.map((c) => c.rank));
  const bestVector = Math.max(0, ...candidates.map((c) => c.vector ?? 0));
  return candidates.map((c) => entryFeatures(profile, c, w, bestRank, documentPassage, bestVector));
}

/** Rarity-weighted share of the question's terms in the passage the extractive answer starts from. */
export function passageCoverage(question: string, extract: Extract, w: TermWeights = uniform): number {
  if (!extract.passageText) return 0;
  const passage = new Set(termsOf(extract.passageText));
  const terms = termsOf(question);
  const total = terms.reduce((sum, t) => sum + w.idf(t), 0);
  return total ? terms.filter((t) => passage.has(t)).reduce((sum, t) => sum + w.idf(t), 0) / total : 0;
}

/** Candidates best first, each with its features, match score and confidence (ARCHITECTURE §6 "rank and decide"). */
export function rankEntries(
  question: string,
  candidates: EntryCandidate[],
  w: TermWeights = uniform,
  /** passageCoverage() of the documents' best passage, when they were searched. */
  documentPassage = 0,
  /** The dense models when the candidates carry embedding similarities, else the lexical ones. */
  models: EngineModels = LEXICAL_MODELS,
): EntryScore[] {
  const all = candidateFeatures(question, candidates, w, documentPassage);
  const scored = candidates.map((candidate, i) => {
    const features = all[i] as EntryFeatures;
    const logit = entryLogit(features, models.entry);
    return { candidate, features, logit, score: sigmoid(logit), confidence: 0 };
  });
  // Softmax with the "no entry" option at logit 0, computed stably.
  const top = Math.max(0, ...scored.map((s) => s.logit));
  const denominator = Math.exp(-top) + scored.reduce((sum, s) => sum + Math.exp(s.logit - top), 0);
  for (const s of scored) s.confidence = Math.exp(s.logit - top) / denominator;
  scored.sort((a, b) => b.logit - a.logit || (a.candidate.status === 'approved' ? -1 : 1));
  calibrateBest(scored, models.answer);
  return scored;
}

/**
 * With an answer model, the best entry's confidence becomes that model's probability that it answers the question
 * (the others keep their share of the ranker's): see models.ts.
 */
export function calibrateBest(ranked: EntryScore[], model: EngineModels['answer']): void {
  const [best, second] = ranked;
  if (!best || !model) return;
  const f = answerFeatures(
    { logit: best.logit, confidence: best.confidence, vector: best.candidate.vector ?? 0, features: best.features },
    second,
    ranked.map((r) => r.candidate.vector ?? 0),
  );
  let s = model.bias;
  for (const name of ANSWER_FEATURES) s += model.weights[name] * f[name];
  best.confidence = sigmoid(s);
  // Its match % never reads lower than the confidence it is answered with (a paraphrase sharing no word with the
  // entry has a low lexical score, yet is the entry meant).
  best.score = Math.max(best.score, best.confidence);
}

/** The probability that the extractive answer answers the question (DOCUMENT_MODEL over documentFeatures). */
export function documentConfidence(f: DocumentFeatures, model = DOCUMENT_MODEL): number {
  let s = model.bias;
  for (const name of DOCUMENT_FEATURES) s += model.weights[name] * f[name];
  return sigmoid(s);
}

/** The decision features of an extractive answer, as the engine and bench:fit compute them. */
export function extractFeatures(
  question: string,
  extract: Extract,
  w: TermWeights,
  libraryConfidence: number,
  vectors: { passageVector: number; bestChunkVector: number; extractVector: number } = {
    passageVector: 0,
    bestChunkVector: 0,
    extractVector: 0,
  },
): DocumentFeatures {
  return documentFeatures(
    profileQuestion(question),
    { ...extract, chunkTexts: extract.chunks.map((c) => c.chunk.text), ...vectors },
    w,
    libraryConfidence,
  );
}
