import type { AnswerSource, AnswerType, TopMatch } from '../../common/schemas/qa';
import type { BrandProfile } from '../../common/schemas/organizations';
import type { LlmClient } from '../llm/client';
import type { Embedder } from '../embedding/embedder';
import { analyzeQuestion } from './analyze';
import { inLane } from './fair-lanes';
import { decide } from './ranking/decide';
import { generateGrounded } from './ranking/generate-llm';
import { rankEntries } from './ranking/score';
import { THRESHOLDS } from './ranking/thresholds';
import { libraryIndex, searchIndex, type LibraryIndex } from './retrieval/library-index';
import { ENTRY_CANDIDATES, type Scope } from './retrieval/retrieve';
import { retrievalText } from './text/question-bounds';

/*
 * The engine's front door: Ask, tasks and the assessment worker call these and nothing else of the engine's
 * stages. answerQuestion retrieves (analyze.ts), decides (ranking/decide.ts) and writes the answer; matchQuestion
 * and libraryAnswers are its library side alone, for the side panel and for open tasks.
 */

export { libraryIndex, type LibraryIndex, type Scope };

export type EngineAi = {
  llm?: LlmClient | null;
  embedder?: Embedder | null;
  /**
   * The question's vector, when it was embedded ahead (embedQuestions): no embedding call of its own then. Never
   * rejects; null when embedding ahead failed (the engine embeds the question itself).
   */
  queryEmbedding?: Promise<ArrayLike<number> | null>;
};

/**
 * The vectors answerQuestion would ask the embedder for, for several questions in one call: background answering
 * embeds a claim's questions together, on the embedding thread, ahead of answering them one by one.
 */
export function embedQuestions(embedder: Embedder, asked: string[], key: string): Promise<Array<ArrayLike<number>>> {
  return embedder.embedQueries(asked.map(engineQuestion), { key });
}

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

/** 'Needs Review': nothing in the workspace answers the question; the closest library entries still show. */
function needsReview(matches: TopMatch[]): EngineAnswer {
  return {
    answer: NEEDS_REVIEW_ANSWER,
    answerType: 'unknown',
    confidence: 0,
    sources: [],
    matches,
    lastVerifiedAt: null,
  };
}

const percent = (score: number) => Math.max(0, Math.min(100, Math.round(score * 100)));

/**
 * The marker a questionnaire numbers its rows with, in the question's own cell: "1.", "12)", "(3)", "Q3:", "#4",
 * "1.2". Only before a capital (or a letter of a script without case), so a number that is part of the question
 * ("24/7 support?", "1.5 million records…", "90 days…") stays.
 */
const LIST_MARKER =
  /^\s*(?:\(?\d{1,3}[.):]|\d{1,3}(?:\.\d{1,3})+\.?|Q\s?\d{1,3}[.):]|#\s?\d{1,3}[.):]?)\s+(?=[\p{Lu}\p{Lo}])/u;

/**
 * What the engine reads of a question, the same whoever asks it (Ask, the assessment worker, the side panel, tasks):
 * without a leading list marker, and bounded (question-bounds.ts). A workbook cell reads "3) Is a WAF deployed…?"
 * where a person on Ask types the question alone; read as part of the question, the number was a term no answer
 * has (10-20 points of confidence less, and borderline document answers fell to 'Needs Review') and the question no
 * longer began like a yes/no question (no "Yes." before the answer), so a bulk assessment answered the same
 * question worse than Ask did.
 */
export function engineQuestion(asked: string): string {
  return retrievalText(asked.replace(LIST_MARKER, ''));
}

/**
 * ARCHITECTURE §6: the library first (its answer verbatim), then the documents (an extractive answer of their best
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
  const question = engineQuestion(asked);
  const analysis = await analyzeQuestion(scope, question, ai, {
    libraryFreshWithinMs: opts.libraryFreshWithinMs,
    bannedTokens: brand?.bannedTokens ?? [],
  });
  const { chunks, extract, weights } = analysis;
  // Ranking and the document model read every candidate's features: CPU work, so it takes its turn too.
  const decision = await inLane(scope.organizationId, () => decide(analysis));
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
      : needsReview(matches);
  }
  if (decision.kind === 'document') {
    return {
      answer: withDisclaimers(extract.shown, brand),
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

  return needsReview(matches);
}

/** Library entries closest to a question, for the side panel's Top Matching Answers. */
export async function matchQuestion(scope: Scope, asked: string): Promise<TopMatch[]> {
  const question = engineQuestion(asked);
  const index = await libraryIndex(scope);
  const ranked = rankEntries(question, searchIndex(index, question, ENTRY_CANDIDATES), index.weights);
  return ranked
    .filter((r) => r.score >= THRESHOLDS.match)
    .slice(0, 5)
    .map((r) => ({
      id: r.candidate.id,
      question: r.candidate.question,
      similarity: Math.round(r.score * 100),
      lastUpdated: r.candidate.updatedAt.toISOString(),
    }));
}

/**
 * answerQuestion's library decision alone: the best-ranked entry answers when its confidence reaches
 * THRESHOLDS.library. It is taken without the documents' best passage or embeddings, which answerQuestion also
 * weighs: a task ends when the library answers the question, whatever the documents say. Given the index rather
 * than the scope so that a caller can keep decisions for exactly as long as the index lives (libraryIndex hands out
 * the same object until the library changes).
 */
export function libraryAnswers(index: LibraryIndex, asked: string): boolean {
  const question = engineQuestion(asked);
  const best = rankEntries(question, searchIndex(index, question, ENTRY_CANDIDATES), index.weights)[0];
  return best !== undefined && best.confidence >= THRESHOLDS.library;
}

/** What a person writing an answer may rest it on: library entries and document passages, best first. */
export type Evidence = {
  entries: Array<{ id: string; question: string; answer: string; status: 'approved' | 'draft'; match: number }>;
  passages: Array<{
    documentId: string;
    name: string;
    pageNumber: number | null;
    section: string | null;
    text: string;
  }>;
};

/** Entries and passages shown to a person writing an answer; the engine's sources hold at most five. */
const EVIDENCE_SHOWN = 5;
/** The longest passage shown: enough to quote from, short enough to scan five of. */
const PASSAGE_SHOWN = 1200;

/**
 * The engine's own retrieval and ranking for a person looking for what to write or cite: the library entries it
 * ranks best and the documents' passages it reads, whether or not any of them reaches the confidence to answer on
 * its own. The decision is not taken: a person judges these, so weaker matches than the engine would use are shown.
 */
export async function findEvidence(scope: Scope, asked: string, ai: EngineAi = {}): Promise<Evidence> {
  const question = engineQuestion(asked);
  const analysis = await analyzeQuestion(scope, question, ai);
  const { ranked } = await inLane(scope.organizationId, () => decide(analysis));
  // An entry whose match rounds to 0% is one the ranker sees nothing in (found by a shared common word, or as the
  // nearest of a few by meaning): listing it would only bury the ones that match.
  const entries = ranked
    .map((r) => ({
      id: r.candidate.id,
      question: r.candidate.question,
      answer: r.candidate.answer,
      status: r.candidate.status,
      match: percent(r.score),
    }))
    .filter((e) => e.match > 0)
    .slice(0, EVIDENCE_SHOWN);
  // The passages the extractive answer chose come first, then the others as retrieved; each passage once. They
  // carry no match figure: the scores behind the two orders are on different scales.
  const chosen = new Set(analysis.extract.chunks.map((c) => c.chunk.id));
  const chunks = [
    ...analysis.extract.chunks.map((c) => c.chunk),
    ...analysis.chunks.filter((c) => !chosen.has(c.id)),
  ].slice(0, EVIDENCE_SHOWN);
  const passages = chunks.map((c) => ({
    documentId: c.documentId,
    name: c.documentName,
    pageNumber: c.page,
    section: c.section,
    text: c.text.length > PASSAGE_SHOWN ? `${c.text.slice(0, PASSAGE_SHOWN).trimEnd()}…` : c.text,
  }));
  return { entries, passages };
}
