import type { Analysis } from '../analyze';
import { DENSE_MODELS, LEXICAL_MODELS, type EngineModels } from './models';
import type { DocumentFeatures } from './features';
import { documentConfidence, extractFeatures, rankEntries, type EntryScore } from './score';
import { THRESHOLDS } from './thresholds';

export type Decision =
  | { kind: 'library'; ranked: EntryScore[]; best: EntryScore }
  | { kind: 'document'; ranked: EntryScore[]; confidence: number; features: DocumentFeatures }
  | { kind: 'none'; ranked: EntryScore[]; features: DocumentFeatures };

/**
 * ARCHITECTURE §6 "rank and decide": the library entry the entry model trusts enough, else the documents' extractive
 * answer the document model trusts enough, else nothing ("Needs Review").
 */
export function decide(a: Analysis, models: EngineModels = a.dense ? DENSE_MODELS : LEXICAL_MODELS): Decision {
  const ranked = rankEntries(a.question, a.entries, a.weights, a.passage, models);
  const best = ranked[0];
  if (best && best.confidence >= models.thresholds.library) return { kind: 'library', ranked, best };
  // Whether the sentences answer it: word and passage coverage, the kind of fact asked for ("how long" → a
  // duration), topics of the question the passages never mention (SOC 3, CSA STAR…), similarity by meaning, and
  // how close the library came (a question on a library topic is rarely the documents' to answer).
  const features = documentFeaturesOf(a, best?.confidence ?? 0);
  const confidence = documentConfidence(features, models.document);
  if (
    a.extract.text &&
    a.extract.matchedTerms >= THRESHOLDS.documentMinTerms &&
    confidence >= models.thresholds.document
  )
    return { kind: 'document', ranked, confidence, features };
  return { kind: 'none', ranked, features };
}

/** The document model's features for an analysis, given how confident the library was. */
export function documentFeaturesOf(a: Analysis, libraryConfidence: number): DocumentFeatures {
  const passageChunk = a.extract.chunks[0]?.chunk;
  return extractFeatures(a.question, a.extract, a.weights, libraryConfidence, {
    passageVector: passageChunk?.vector ?? 0,
    bestChunkVector: Math.max(0, ...a.chunks.map((c) => c.vector ?? 0)),
    extractVector: a.extractVector ?? 0,
  });
}
