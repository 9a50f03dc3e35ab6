import type { AnswerSource, AnswerType, TopMatch } from '../../common/schemas/qa';
import type { BrandProfile } from '../../common/schemas/organizations';
import { composeExtractive } from './compose';
import { retrieveChunks, retrieveEntries, type Scope } from './retrieve';
import { rankEntries } from './score';
import { termWeights } from './term-weights';
import { THRESHOLDS } from './thresholds';
import { topicAgreement, topicsOf } from './taxonomy';

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
  brand?: Pick<BrandProfile, 'disclaimers' | 'bannedTokens'>,
): Promise<EngineAnswer> {
  const weights = await termWeights(scope);
  const ranked = rankEntries(question, await retrieveEntries(scope, question), weights);
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
  if (best && best.score >= THRESHOLDS.library) {
    const sources: AnswerSource[] = ranked
      .filter((r, i) => i === 0 || r.score >= THRESHOLDS.library)
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
      confidence: percent(best.score),
      sources,
      matches,
      lastVerifiedAt: best.candidate.lastVerifiedAt,
    };
  }

  const nearMiss = best !== undefined && best.score >= THRESHOLDS.libraryNearMiss;
  const chunks = nearMiss ? [] : await retrieveChunks(scope, question);
  const extract = composeExtractive(question, chunks, brand?.bannedTokens ?? [], weights);
  // The sentences must be about what the question asks: a specific topic of the question (SOC 3, CSA STAR…) that
  // the evidence never mentions means the documents do not answer it, however many words they share.
  const questionTopics = topicsOf(question);
  const onTopic =
    questionTopics.size === 0 ||
    topicAgreement(questionTopics, topicsOf(extract.chunks.map((c) => c.chunk.text).join('\n'))).missing.length === 0;
  if (
    extract.text &&
    onTopic &&
    extract.coverage >= THRESHOLDS.document &&
    extract.matchedTerms >= THRESHOLDS.documentMinTerms
  ) {
    return {
      answer: extract.text,
      answerType: 'generated',
      // A generated answer is never as sure as an approved one: scaled below the library's range.
      confidence: percent(extract.coverage * 0.85),
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
