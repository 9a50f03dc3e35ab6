import type { EntryCandidate } from './retrieve';
import { termsOf } from './terms';
import type { TermWeights } from './term-weights';

export type EntryScore = { candidate: EntryCandidate; score: number };

const uniform: TermWeights = { idf: () => 1 };

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
export function scoreEntry(questionTerms: ReadonlySet<string>, c: EntryCandidate, w: TermWeights = uniform): number {
  if (questionTerms.size === 0) return c.trigram;
  const entryTerms = new Set(termsOf(`${c.question} ${c.tags.join(' ')}`));
  const answerTerms = new Set(termsOf(c.answer));
  const shared = [...questionTerms].filter((t) => entryTerms.has(t));
  const answerOnly = [...questionTerms].filter((t) => !entryTerms.has(t) && answerTerms.has(t));
  const q = weight(questionTerms, w) || 1;
  const questionCoverage = weight(shared, w) / q;
  const entryCoverage = entryTerms.size ? weight(shared, w) / (weight(entryTerms, w) || 1) : 0;
  const answerCoverage = weight(answerOnly, w) / q;
  const score = 0.5 * questionCoverage + 0.25 * entryCoverage + 0.1 * answerCoverage + 0.15 * c.trigram;
  return Math.max(0, Math.min(1, score));
}

export function rankEntries(question: string, candidates: EntryCandidate[], w: TermWeights = uniform): EntryScore[] {
  const terms = new Set(termsOf(question));
  return candidates
    .map((candidate) => ({ candidate, score: scoreEntry(terms, candidate, w) }))
    .sort((a, b) => b.score - a.score || (a.candidate.status === 'approved' ? -1 : 1));
}
