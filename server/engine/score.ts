import type { EntryCandidate } from './retrieve';
import { termsOf } from './terms';

export type EntryScore = { candidate: EntryCandidate; score: number };

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const t of a) if (b.has(t)) n += 1;
  return n;
}

/**
 * How well a library entry answers the question, 0–1, from features that each mean something: how much of the
 * question the entry's question covers, how much of the entry's question is about this question (so a narrower
 * entry beats a broad one), question words found only in the answer, and character-trigram similarity.
 */
export function scoreEntry(questionTerms: ReadonlySet<string>, c: EntryCandidate): number {
  if (questionTerms.size === 0) return c.trigram;
  const entryTerms = new Set(termsOf(`${c.question} ${c.tags.join(' ')}`));
  const answerTerms = new Set(termsOf(c.answer));
  const shared = overlap(questionTerms, entryTerms);
  const questionCoverage = shared / questionTerms.size;
  const entryCoverage = entryTerms.size ? shared / entryTerms.size : 0;
  let answerOnly = 0;
  for (const t of questionTerms) if (!entryTerms.has(t) && answerTerms.has(t)) answerOnly += 1;
  const answerCoverage = answerOnly / questionTerms.size;
  const score = 0.45 * questionCoverage + 0.25 * entryCoverage + 0.1 * answerCoverage + 0.2 * c.trigram;
  return Math.max(0, Math.min(1, score));
}

export function rankEntries(question: string, candidates: EntryCandidate[]): EntryScore[] {
  const terms = new Set(termsOf(question));
  return candidates
    .map((candidate) => ({ candidate, score: scoreEntry(terms, candidate) }))
    .sort((a, b) => b.score - a.score || (a.candidate.status === 'approved' ? -1 : 1));
}
