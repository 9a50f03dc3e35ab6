import type { AnswerSource, AnswerType, TopMatch } from '../../common/schemas/qa';
import type { BrandProfile } from '../../common/schemas/organizations';
import { composeExtractive, type Extract } from './compose';
import { ENTRY_CANDIDATES, retrieveChunks, type ChunkCandidate, type EntryCandidate, type Scope } from './retrieve';
import { documentConfidence, extractFeatures, passageCoverage, rankEntries, type EntryScore } from './score';
import { libraryIndex, searchIndex } from './library-index';
import { THRESHOLDS } from './thresholds';
import { DENSE_MODELS, LEXICAL_MODELS, type EngineModels } from './models';
import type { DocumentFeatures } from './features';
import type { TermWeights } from './term-weights';
import type { LlmClient } from '../llm/client';
import type { Embedder } from '../embedding/embedder';
import { generateGrounded } from './generate-llm';
import { vectorMatches, withVectorChunks, withVectorEntries } from './vector-candidates';
import { engineLanes } from './fair-lanes';
import { retrievalText } from './question-bounds';

export type EngineAi = { llm?: LlmClient | null; embedder?: Embedder | null };

export type EngineAnswer = {
  answer: string;
  answerType: AnswerType;
  confidence: number;
  sources: AnswerSource[];
  matches: TopMatch[];
  lastVerifiedAt: Date | null;
};

export const NEEDS_REVIEW_ANSWER =
  'No approved answer or document in this workspace covers this question yet. It needs review by someone who knows the answer.';

function withDisclaimers(answer: string, brand: Pick<BrandProfile, 'disclaimers'> | undefined): string {
  const disclaimers = brand?.disclaimers.trim();
  return disclaimers ? `${answer}\n\n${disclaimers}` : answer;
}

const percent = (score: number) => Math.max(0, Math.min(100, Math.round(score * 100)));

/**
 * Everything the decision looks at for one question, before any fitted model is applied: the library candidates
 * (lexical and, with an embedder, nearest by meaning), the documents' passages and the extractive answer composed
 * from them. bench:quality and bench:fit collect these once and refit the models on them, so what they measure is
 * exactly what the engine decides.
 */
export type Analysis = {
  question: string;
  weights: TermWeights;
  entries: EntryCandidate[];
  chunks: ChunkCandidate[];
  extract: Extract;
  passage: number;
  /** Similarity by meaning of the question to the extractive answer itself (embeddings only). */
  extractVector?: number;
  /** Whether every candidate has its embedding similarity (the dense models apply), or not (the lexical ones). */
  dense: boolean;
};

/** One step of answering, in the organization's turn (fair-lanes.ts). */
function inLane<T>(scope: Scope, step: () => Promise<T> | T): Promise<T> {
  return engineLanes().run(scope.organizationId, async () => step());
}

export async function analyzeQuestion(
  scope: Scope,
  question: string,
  ai: EngineAi = {},
  opts: { libraryFreshWithinMs?: number; bannedTokens?: string[] } = {},
): Promise<Analysis> {
  // Each step below is up to tens of milliseconds of this thread's time on a big workspace (the embedded database
  // runs here too): each takes a turn of the engine's lanes, shared fairly between organizations (fair-lanes.ts).
  // The question's embedding runs in the model's own thread; the vector search (onnxruntime, synchronous) here.
  const lane = <T>(step: () => Promise<T> | T) => inLane(scope, step);
  // One look at the library per question: its index carries the term weights too.
  const index = await lane(() => libraryIndex(scope, { freshWithinMs: opts.libraryFreshWithinMs }));
  const weights = index.weights;
  const vm = await lane(() => vectorMatches(scope, question, ai.embedder));
  const entries = await lane(() =>
    withVectorEntries(scope, question, searchIndex(index, question, ENTRY_CANDIDATES), vm),
  );
  // The documents' best passage is looked at before the library decides: a question the library only nearly
  // covers ("How many vendor tiers?" beside the vendor review entry) is often one the documents answer exactly.
  const chunks = await lane(async () => withVectorChunks(scope, await retrieveChunks(scope, question), vm));
  const extract = await lane(() => composeExtractive(question, chunks, opts.bannedTokens ?? [], weights));
  // Whether the sentences chosen say what was asked, by meaning: the words of a question that nothing answers often
  // still occur in some passage, but the sentences then mean something else.
  const extractVector = vm && extract.text ? await lane(() => vm.similarityTo(extract.text)) : undefined;
  return {
    question,
    weights,
    entries,
    chunks,
    extract,
    passage: passageCoverage(question, extract, weights),
    extractVector,
    // The dense models read a missing similarity as "far in meaning": while the library or the documents are still
    // being embedded (just imported, or an edit waiting for the sweep), the lexical models decide instead.
    dense: vm !== null && entries.every((c) => c.vector !== undefined) && chunks.every((c) => c.vector !== undefined),
  };
}

export type Decision =
  | { kind: 'library'; ranked: EntryScore[]; best: EntryScore }
  | { kind: 'document'; ranked: EntryScore[]; confidence: number; features: DocumentFeatures }
  | { kind: 'none'; ranked: EntryScore[]; features: DocumentFeatures };

/**
 * DESIGN §6 "rank and decide": the library entry the entry model trusts enough, else the documents' extractive
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

/**
 * DESIGN §6: the library first (its answer verbatim), then the documents (an extractive answer of their best
 * sentences), else 'Needs Review' — never an invented answer.
 */
export async function answerQuestion(
  scope: Scope,
  asked: string,
  brand?: Pick<BrandProfile, 'disclaimers' | 'bannedTokens'> & Partial<BrandProfile>,
  /** The optional endpoint (LLM_BASE_URL) writes document answers; the embedder adds retrieval by meaning. */
  ai: EngineAi = {},
  /** Background answering (assessments) may use a library index checked this recently instead of re-checking. */
  opts: { libraryFreshWithinMs?: number } = {},
): Promise<EngineAnswer> {
  // Bounded work per question (question-bounds.ts), in the organization's turns (fair-lanes.ts).
  const question = retrievalText(asked);
  const analysis = await analyzeQuestion(scope, question, ai, {
    libraryFreshWithinMs: opts.libraryFreshWithinMs,
    bannedTokens: brand?.bannedTokens ?? [],
  });
  const { chunks, extract, weights } = analysis;
  // Ranking and the document model read every candidate's features: CPU work, so it takes its turn too.
  const decision = await inLane(scope, () => decide(analysis));
  const { ranked } = decision;
  const matches: TopMatch[] = ranked
    .filter((r) => r.score >= THRESHOLDS.match)
    .slice(0, 3)
    .map((r) => ({
      id: r.candidate.id,
      question: r.candidate.question,
      similarity: percent(r.score),
      lastUpdated: r.candidate.updatedAt.toISOString(),
    }));

  if (decision.kind === 'library') {
    const { best } = decision;
    const sources: AnswerSource[] = ranked
      .filter((r, i) => i === 0 || r.score >= THRESHOLDS.relatedSource)
      .slice(0, 5)
      .map((r) => ({
        type: 'library' as const,
        canonicalAnswerId: r.candidate.id,
        question: r.candidate.question,
        score: Math.round(r.score * 100) / 100,
      }));
    return {
      answer: withDisclaimers(best.candidate.answer, brand),
      answerType: best.candidate.status === 'approved' ? 'canonical' : 'draft',
      confidence: percent(best.confidence),
      sources,
      matches,
      lastVerifiedAt: best.candidate.lastVerifiedAt,
    };
  }

  // With an LLM: an answer grounded in these chunks, or 'unknown' when it finds they do not answer; on any failure
  // (logged) it gives null and the extractive answer below stands.
  const { llm } = ai;
  const grounded =
    llm && chunks.length > 0
      ? await generateGrounded({ llm, question, chunks, brand, weights, workspaceId: scope.workspaceId })
      : null;
  if (grounded) {
    return grounded.supported
      ? {
          ...grounded.result,
          answer: withDisclaimers(grounded.result.answer, brand),
          answerType: 'generated',
          matches,
          lastVerifiedAt: null,
        }
      : {
          answer: NEEDS_REVIEW_ANSWER,
          answerType: 'unknown',
          confidence: 0,
          sources: [],
          matches,
          lastVerifiedAt: null,
        };
  }
  if (decision.kind === 'document') {
    return {
      answer: withDisclaimers(extract.text, brand),
      answerType: 'generated',
      confidence: percent(decision.confidence),
      sources: extract.chunks.slice(0, 5).map((c) => ({
        type: 'document' as const,
        documentId: c.chunk.documentId,
        name: c.chunk.documentName,
        pageNumber: c.chunk.page,
        section: c.chunk.section,
        snippet: c.snippet.slice(0, 300),
        score: Math.round(c.score * 100) / 100,
      })),
      matches,
      lastVerifiedAt: null,
    };
  }

  return {
    answer: NEEDS_REVIEW_ANSWER,
    answerType: 'unknown',
    confidence: 0,
    sources: [],
    matches,
    lastVerifiedAt: null,
  };
}
