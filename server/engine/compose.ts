import { paragraphsOf, sentencesOf } from '../ingest/sentences';
import { intentsOf, intentsStated, yesOpening, type Intent } from './answer-intent';
import type { ChunkCandidate } from './retrieve';
import { termsOf } from './terms';
import type { TermWeights } from './term-weights';

export type Extract = {
  text: string;
  /** Rarity-weighted share of the question's terms the chosen sentences contain. */
  coverage: number;
  matchedTerms: number;
  /** Share of the question's weight in the first (best) sentence alone. */
  firstCoverage: number;
  /** The text of the passage (chunk) the first sentence comes from. */
  passageText: string;
  /** The kinds of fact the question asks for ("how long"…) and how many of them the sentences state. */
  intents: number;
  intentsStated: number;
  chunks: Array<{ chunk: ChunkCandidate; snippet: string; score: number }>;
};

/** What a sentence stating the asked-for kind of fact gains over one that merely shares words. */
const INTENT_BONUS = 0.3;
/** A further sentence must add at least this share of the question's weight, or state a fact still missing. */
const MIN_ADDED = 0.2;
const MAX_SENTENCES = 3;
/** What a sentence next to the first one (same paragraph) gains: it is about the same thing. */
const FOLLOWS_BONUS = 0.3;
/** A sentence that only makes sense after the one before it. */
const CONTINUES =
  /^(?:it|its|they|their|them|this|these|those|such|each|both|the same|there|he|she|in that case|if so)\b/i;

function containsBanned(sentence: string, banned: readonly string[]): boolean {
  const lower = sentence.toLowerCase();
  return banned.some((b) => b.trim() && lower.includes(b.trim().toLowerCase()));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Chunk text is whitespace-collapsed, so a section heading runs into the sentence after it ("Personal Data
 * Breaches Any employee who…"). The chunk knows its section: a sentence starting with that title loses it.
 */
function withoutHeading(sentence: string, section: string | null): string {
  if (!section) return sentence;
  const title = section.replace(/^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+/, '').trim();
  if (title.length < 3) return sentence;
  const re = new RegExp(`^(?:\\d+(?:\\.\\d+)*\\.?\\s+)?${escape(title)}\\s+(?=[A-Z0-9])`);
  return sentence.replace(re, '');
}

type Sentence = {
  /** Position in its chunk: sentence n + 1 of the same paragraph continues sentence n. */
  at: number;
  paragraph: number;
  text: string;
  terms: Set<string>;
  weight: number;
  stated: Intent[];
  chunk: ChunkCandidate;
  rankIndex: number;
};

/**
 * An extractive answer: the document sentence that best answers the question — the most of its (rarity-weighted)
 * terms, and a fact of the kind it asks for — then at most two more that add what the first lacks (another part
 * of a multi-part question), preferring the same passage. Never a sentence with a banned token; nothing is written
 * that the documents do not say, except a "Yes." opening when the evidence plainly affirms a yes/no question.
 */
export function composeExtractive(
  question: string,
  chunks: ChunkCandidate[],
  banned: readonly string[] = [],
  weights: TermWeights = { idf: () => 1, known: () => true },
): Extract {
  const q = new Set(termsOf(question));
  let qWeight = 0;
  for (const t of q) qWeight += weights.idf(t);
  const intents = intentsOf(question);
  const sentences: Sentence[] = [];
  chunks.forEach((chunk, rankIndex) => {
    let at = 0;
    paragraphsOf(chunk.text).forEach((paragraphText, paragraph) => {
      for (const raw of sentencesOf(paragraphText)) {
        at++;
        const text = withoutHeading(raw, chunk.section);
        if (text.length < 20 || containsBanned(text, banned)) continue;
        const terms = new Set(termsOf(text).filter((t) => q.has(t)));
        const continues = CONTINUES.test(text);
        if (terms.size === 0 && !continues) continue;
        let weight = 0;
        for (const t of terms) weight += weights.idf(t);
        sentences.push({ at, paragraph, text, terms, weight, stated: intentsStated(text, intents), chunk, rankIndex });
      }
    });
  });

  const share = (w: number) => w / Math.max(1e-9, qWeight);
  const picked: Sentence[] = [];
  const covered = new Set<string>();
  const statedSoFar = new Set<Intent>();
  const seen = new Set<string>();
  while (picked.length < MAX_SENTENCES) {
    let best: { s: Sentence; score: number } | null = null;
    for (const s of sentences) {
      if (seen.has(s.text)) continue;
      let added = 0;
      for (const t of s.terms) if (!covered.has(t)) added += weights.idf(t);
      const newIntents = s.stated.filter((i) => !statedSoFar.has(i)).length;
      // The sentence right after the first one, in the same paragraph, carries on its subject ("It is approved
      // by…"): kept when it says more about the question or refers back to it.
      const first = picked[0];
      const follows =
        first !== undefined &&
        s.chunk.id === first.chunk.id &&
        s.paragraph === first.paragraph &&
        ((s.at === first.at + 1 && (s.terms.size > 0 || CONTINUES.test(s.text))) ||
          // …or the one right before it, when it is about the question too ("Only the General Counsel can place a
          // legal hold. A legal hold suspends…").
          (s.at === first.at - 1 && s.terms.size > 0));
      if (picked.length > 0 && !follows && share(added) < MIN_ADDED && newIntents === 0) continue;
      if (picked.length === 0 && s.terms.size === 0) continue;
      const sameChunk = follows ? FOLLOWS_BONUS : picked.some((p) => p.chunk.id === s.chunk.id) ? 0.05 : 0;
      // Ties go to the better-ranked chunk.
      const score = share(added) + (newIntents > 0 ? INTENT_BONUS : 0) + sameChunk - s.rankIndex * 0.001;
      if (!best || score > best.score) best = { s, score };
    }
    if (!best) break;
    picked.push(best.s);
    seen.add(best.s.text);
    for (const t of best.s.terms) covered.add(t);
    for (const i of best.s.stated) statedSoFar.add(i);
  }

  const coverage = qWeight ? [...covered].reduce((sum, t) => sum + weights.idf(t), 0) / qWeight : 0;
  const byChunk = new Map<string, { chunk: ChunkCandidate; snippet: string; score: number }>();
  for (const p of picked) {
    if (!byChunk.has(p.chunk.id)) byChunk.set(p.chunk.id, { chunk: p.chunk, snippet: p.text, score: share(p.weight) });
  }
  const first = picked[0];
  const opening = first ? yesOpening(question, first.text, share(first.weight)) : '';
  return {
    text: opening + picked.map((p) => p.text.trim()).join(' '),
    coverage,
    firstCoverage: first ? share(first.weight) : 0,
    passageText: first?.chunk.text ?? '',
    matchedTerms: covered.size,
    intents: intents.length,
    intentsStated: statedSoFar.size,
    chunks: [...byChunk.values()],
  };
}
