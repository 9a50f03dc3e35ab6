import type { EntryCandidate } from './retrieve';
import { termsOf } from './terms';
import type { TermWeights } from './term-weights';
import { topicAgreement, topicsOf } from './taxonomy';

export type EntryScore = { candidate: EntryCandidate; score: number };

const uniform: TermWeights = { idf: () => 1 };
/** Taken off an entry's score per specific topic the question asks about that the entry lacks. */
const TOPIC_MISSING_PENALTY = 0.15;

function weight(terms: Iterable<string>, w: TermWeights): number {
  let sum = 0;
  for (const t of terms) sum += w.idf(t);
  return sum;
}

/**
 * How well a library entry answers the question, 0–1, from features that each mean something: the share of the
 * question's (rarity-weighted) terms the entry's question and tags cover, the share of the entry's terms that are
 * about this question (so a narrower entry beats a broad one), question terms found only in the answer, and
 * character-trigram similarity of the two questions.
 */
export function scoreEntry(
  questionTerms: ReadonlySet<string>,
  c: EntryCandidate,
  w: TermWeights = uniform,
  questionTopics: Map<string, number> = new Map(),
): number {
  if (questionTerms.size === 0) return c.trigram;
  const entryTerms = new Set(termsOf(`${c.question} ${c.tags.join(' ')}`));
  const answerTerms = new Set(termsOf(c.answer));
  const shared = [...questionTerms].filter((t) => entryTerms.has(t));
  const answerOnly = [...questionTerms].filter((t) => !entryTerms.has(t) && answerTerms.has(t));
  const q = weight(questionTerms, w) || 1;
  const questionCoverage = weight(shared, w) / q;
  const entryCoverage = entryTerms.size ? weight(shared, w) / (weight(entryTerms, w) || 1) : 0;
  const answerCoverage = weight(answerOnly, w) / q;
  let score = 0.4 * questionCoverage + 0.2 * entryCoverage + 0.1 * answerCoverage + 0.1 * c.trigram;
  if (questionTopics.size > 0) {
    // Topic agreement: the entry must be about what the question asks (ISO 27001 is not SOC 2), judged on its
    // question and tags, with its answer as weaker evidence.
    const entryTopics = topicsOf(`${c.question}. ${c.tags.join(', ')}`);
    for (const [id, strength] of topicsOf(c.answer)) {
      entryTopics.set(id, Math.max(entryTopics.get(id) ?? 0, strength * 0.5));
    }
    const agreement = topicAgreement(questionTopics, entryTopics);
    score += 0.2 * agreement.score - TOPIC_MISSING_PENALTY * agreement.missing.length;
  } else {
    score += 0.2 * questionCoverage;
  }
  return Math.max(0, Math.min(1, score));
}

export function rankEntries(question: string, candidates: EntryCandidate[], w: TermWeights = uniform): EntryScore[] {
  const terms = new Set(termsOf(question));
  const topics = topicsOf(question);
  return candidates
    .map((candidate) => ({ candidate, score: scoreEntry(terms, candidate, w, topics) }))
    .sort((a, b) => b.score - a.score || (a.candidate.status === 'approved' ? -1 : 1));
}
