import type { AnswerSource, AnswerType, TopMatch } from '../../common/schemas/qa';
import type { BrandProfile } from '../../common/schemas/organizations';
import { composeExtractive } from './compose';
import { ENTRY_CANDIDATES, retrieveChunks, type Scope } from './retrieve';
import { documentConfidence, extractFeatures, passageCoverage, rankEntries } from './score';
import { libraryIndex, searchIndex } from './library-index';
import { THRESHOLDS } from './thresholds';
import type { LlmClient } from '../llm/client';
import { generateGrounded } from './generate-llm';
import { vectorMatches, withVectorChunks, withVectorEntries } from './vector-candidates';

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
 * DESIGN §6: the library first (its answer verbatim), then the documents (an extractive answer of their best
 * sentences), else 'Needs Review' — never an invented answer.
 */
export async function answerQuestion(
  scope: Scope,
  question: string,
  brand?: Pick<BrandProfile, 'disclaimers' | 'bannedTokens'> & Partial<BrandProfile>,
  /** The optional endpoint (LLM_BASE_URL): embeddings join retrieval, and document answers are written by it. */
  llm?: LlmClient | null,
  /** Background answering (assessments) may use a library index checked this recently instead of re-checking. */
  opts: { libraryFreshWithinMs?: number } = {},
): Promise<EngineAnswer> {
  // One look at the library per question: its index carries the term weights too.
  const index = await libraryIndex(scope, { freshWithinMs: opts.libraryFreshWithinMs });
  const weights = index.weights;
  const vm = await vectorMatches(scope, question, llm);
  const entries = await withVectorEntries(scope, question, searchIndex(index, question, ENTRY_CANDIDATES), vm);
  // The documents' best passage is looked at before the library decides: a question the library only nearly
  // covers ("How many vendor tiers?" beside the vendor review entry) is often one the documents answer exactly.
  const chunks = await withVectorChunks(scope, await retrieveChunks(scope, question), vm);
  const extract = composeExtractive(question, chunks, brand?.bannedTokens ?? [], weights);
  const ranked = rankEntries(question, entries, weights, passageCoverage(question, extract, weights));
  const matches: TopMatch[] = ranked
    .filter((r) => r.score >= THRESHOLDS.match)
    .slice(0, 3)
    .map((r) => ({
      id: r.candidate.id,
      question: r.candidate.question,
      similarity: percent(r.score),
      lastUpdated: r.candidate.updatedAt.toISOString(),
    }));

  const best = ranked[0];
  if (best && best.confidence >= THRESHOLDS.library) {
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
  // Whether the sentences answer it: word and passage coverage, the kind of fact asked for ("how long" → a
  // duration), topics of the question the passages never mention (SOC 3, CSA STAR…), and how close the library
  // came (a question on a library topic is rarely the documents' to answer), weighed by the fitted model.
  const documentScore = documentConfidence(extractFeatures(question, extract, weights, best?.confidence ?? 0));
  if (extract.text && extract.matchedTerms >= THRESHOLDS.documentMinTerms && documentScore >= THRESHOLDS.document) {
    return {
      answer: withDisclaimers(extract.text, brand),
      answerType: 'generated',
      confidence: percent(documentScore),
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
