import { paragraphsOf, sentencesOf } from '../ingest/sentences';
import type { ChunkCandidate } from './retrieve';
import { termsOf } from './terms';
import type { TermWeights } from './term-weights';

export type Extract = {
  text: string;
  coverage: number;
  matchedTerms: number;
  chunks: Array<{ chunk: ChunkCandidate; snippet: string; score: number }>;
};

function containsBanned(sentence: string, banned: readonly string[]): boolean {
  const lower = sentence.toLowerCase();
  return banned.some((b) => b.trim() && lower.includes(b.trim().toLowerCase()));
}

/**
 * An extractive answer: the document sentences that cover most of the question's terms, best first, at most three,
 * never a sentence containing a banned token. Nothing is written that the documents do not say.
 */
export function composeExtractive(
  question: string,
  chunks: ChunkCandidate[],
  banned: readonly string[] = [],
  weights: TermWeights = { idf: () => 1 },
): Extract {
  const q = new Set(termsOf(question));
  let qWeight = 0;
  for (const t of q) qWeight += weights.idf(t);
  type Scored = { sentence: string; terms: Set<string>; chunk: ChunkCandidate; score: number };
  const scored: Scored[] = [];
  chunks.forEach((chunk, rankIndex) => {
    for (const paragraph of paragraphsOf(chunk.text)) {
      for (const sentence of sentencesOf(paragraph)) {
        if (sentence.length < 20 || containsBanned(sentence, banned)) continue;
        const terms = new Set(termsOf(sentence).filter((t) => q.has(t)));
        if (terms.size === 0) continue;
        // Ties go to the better-ranked chunk.
        let w = 0;
        for (const t of terms) w += weights.idf(t);
        scored.push({ sentence, terms, chunk, score: w / Math.max(1e-9, qWeight) - rankIndex * 0.001 });
      }
    }
  });
  scored.sort((a, b) => b.score - a.score);
  const picked: Scored[] = [];
  const covered = new Set<string>();
  for (const s of scored) {
    if (picked.length >= 3) break;
    const adds = [...s.terms].filter((t) => !covered.has(t)).length;
    if (picked.length > 0 && adds === 0) continue;
    picked.push(s);
    for (const t of s.terms) covered.add(t);
  }
  const byChunk = new Map<string, { chunk: ChunkCandidate; snippet: string; score: number }>();
  for (const p of picked) {
    const prior = byChunk.get(p.chunk.id);
    if (!prior) byChunk.set(p.chunk.id, { chunk: p.chunk, snippet: p.sentence, score: p.score });
  }
  return {
    text: picked.map((p) => p.sentence.trim()).join(' '),
    coverage: qWeight ? [...covered].reduce((sum, t) => sum + weights.idf(t), 0) / qWeight : 0,
    matchedTerms: covered.size,
    chunks: [...byChunk.values()],
  };
}
