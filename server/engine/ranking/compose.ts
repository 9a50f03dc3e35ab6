import { listItemsOnLines } from '../../../common/list-lines';
import {
  isHeadingLine,
  joinBrokenWords,
  paragraphsOf,
  sentencesOf,
  leadingTitleStripper,
} from '../../ingest/sentences';
import {
  intentPhrases,
  intentsOf,
  intentsStated,
  thirdPartyJudge,
  yesOpening,
  type Intent,
} from '../text/answer-intent';
import type { ChunkCandidate } from '../retrieval/retrieve';
import { termsOf } from '../text/thesaurus';
import type { TermWeights } from '../retrieval/library-index';

export type Extract = {
  /** The chosen sentences on one line: what is scored (its embedding is a feature) and measured by the bench. */
  text: string;
  /**
   * `text` as an answer shows it: the same words, with list items and lines of the passage that are not sentences
   * (a Word list, "Requirements:") on lines of their own. Only spaces of `text` become line breaks.
   */
  shown: string;
  /** Rarity-weighted share of the question's terms the chosen sentences (all of one passage) contain. */
  coverage: number;
  matchedTerms: number;
  /** Share of the question's weight in the first (best) sentence alone. */
  firstCoverage: number;
  /** The text of the passage (chunk) the answer's sentences come from. */
  passageText: string;
  /** The kinds of fact the question asks for ("how long"…) and how many of them the sentences state. */
  intents: number;
  intentsStated: number;
  /**
   * The best sentence's claim is about a third party ("AWS maintains ISO 27001 certification"), not the
   * organization: it gets no Yes/No opening, and deserves less confidence than its coverage suggests.
   */
  aboutThirdParty: boolean;
  /**
   * The passage the answer comes from first (its snippet: the best sentence), then other passages whose best
   * sentence says as much (the same fact in another document) as further sources; their text is not in `text`.
   */
  chunks: Array<{ chunk: ChunkCandidate; snippet: string; score: number }>;
};

/** What a sentence stating the asked-for kind of fact gains over one that merely shares words. */
const INTENT_BONUS = 0.3;
/** A further sentence must add at least this share of the question's weight, or state a fact still missing. */
const MIN_ADDED = 0.2;
const MAX_SENTENCES = 3;
/** What a sentence next to one already picked (same paragraph) gains: it is about the same thing. */
const FOLLOWS_BONUS = 0.3;
/** What a sentence about someone else ("AWS maintains…") loses against one about the organization itself. */
const THIRD_PARTY_PENALTY = 0.15;
/** Other passages listed as sources besides the one answering; answer.ts shows five sources in all. */
const MAX_CORROBORATING = 4;
/** A sentence that only makes sense after the one before it. */
const CONTINUES =
  /^(?:it|its|they|their|them|this|these|those|such|each|both|the same|there|he|she|in that case|if so)\b/i;
// A chunk's paragraphs are joined by one line break (chunk.ts), so a heading on its own line ends at one; a line
// break before a lower-case word is only a wrapped line.
const PARAGRAPH_BREAK = /\n(?![^\S\n]*\p{Ll})/u;
/** A sentence that ends like one; a line of the passage that does not is a list item, a label or an intro. */
const ENDS_SENTENCE = /[.!?…]["'”’)\]]*$/u;

function containsBanned(sentence: string, banned: readonly string[]): boolean {
  const lower = sentence.toLowerCase();
  return banned.some((b) => b.trim() && lower.includes(b.trim().toLowerCase()));
}

/** "Information_Security-Policy.pdf" → "Information Security Policy": a title the document's text may start with. */
function documentTitle(name: string): string {
  return name
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[_-]+/g, ' ')
    .trim();
}

type Sentence = {
  /** Position in its chunk: sentence n + 1 of the same paragraph continues sentence n. */
  at: number;
  paragraph: number;
  text: string;
  /** The question's terms the sentence has. */
  terms: Set<string>;
  /** Every term of the sentence. */
  all: string[];
  weight: number;
  stated: Intent[];
  chunk: ChunkCandidate;
  rankIndex: number;
};

type Scored = { s: Sentence; score: number };

/** A sentence of a chunk as read once: what does not depend on the question. */
type ReadSentence = { at: number; paragraph: number; text: string; terms: string[] };

/**
 * Chunks' sentences by chunk id, so that the passages a workspace's questions keep meeting are split and stemmed
 * once, not on every question (a chunk's text never changes; the entry is checked against it anyway). Bounded,
 * least recently used first out.
 */
const readChunks = new Map<string, { source: string; sentences: ReadSentence[] }>();
const READ_CHUNKS_KEPT = 5000;

/**
 * The sentences of a chunk in order, with broken words joined and the headings and titles that run into them
 * removed (chunk text is whitespace-collapsed: "Password Policy All passwords must…"); heading lines are dropped.
 */
function readChunk(chunk: ChunkCandidate): ReadSentence[] {
  const source = `${chunk.section ?? ''}\u0000${chunk.documentName}\u0000${chunk.text}`;
  const hit = readChunks.get(chunk.id);
  if (hit && hit.source === source) {
    readChunks.delete(chunk.id);
    readChunks.set(chunk.id, hit);
    return hit.sentences;
  }
  const sentences: ReadSentence[] = [];
  const withoutTitles = leadingTitleStripper([chunk.section, documentTitle(chunk.documentName)]);
  let at = 0;
  const lines = paragraphsOf(joinBrokenWords(chunk.text)).flatMap((p) => p.split(PARAGRAPH_BREAK));
  lines.forEach((line, paragraph) => {
    for (const raw of isHeadingLine(line) ? [] : sentencesOf(line)) {
      // Every sentence takes a place, kept or not, so that a dropped one is never bridged as "the next sentence".
      at++;
      const text = withoutTitles(raw);
      if (text.length < 20) continue;
      sentences.push({ at, paragraph, text, terms: termsOf(text) });
    }
  });
  if (readChunks.size >= READ_CHUNKS_KEPT) readChunks.delete(readChunks.keys().next().value ?? '');
  readChunks.set(chunk.id, { source, sentences });
  return sentences;
}

function chunkSentences(chunk: ChunkCandidate, rankIndex: number, banned: readonly string[]): Sentence[] {
  return readChunk(chunk)
    .filter((r) => !containsBanned(r.text, banned))
    .map((r) => ({ ...r, terms: new Set<string>(), all: r.terms, weight: 0, stated: [], chunk, rankIndex }));
}

const adjacent = (a: Sentence, b: Sentence) => a.paragraph === b.paragraph && Math.abs(a.at - b.at) === 1;

/**
 * An extractive answer from ONE passage: the document sentence that best answers the question — the most of its
 * (rarity-weighted) terms, a fact of the kind it asks for, about the organization rather than its provider — then
 * at most two more sentences of the same chunk that add what it lacks (another part of a multi-part question) or
 * carry on its subject, in the order the document has them. Sentences of other chunks or documents are never
 * spliced in, nor headings run into a sentence; nothing with a banned token. Nothing is written that the document
 * does not say, except a "Yes."/"No." opening when the sentence plainly answers a yes/no question about the
 * organization itself.
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
  const share = (w: number) => w / Math.max(1e-9, qWeight);
  const intents = intentsOf(question);
  // "long" of "how long": once the duration is stated, a sentence that is merely "long" adds nothing.
  const askTerms = new Set(termsOf(intentPhrases(question).join(' ')));
  const aboutThirdParty = thirdPartyJudge(question);

  const passages = chunks.map((chunk, rankIndex) => {
    const sentences = chunkSentences(chunk, rankIndex, banned);
    for (const s of sentences) {
      s.terms = new Set(s.all.filter((t) => q.has(t)));
      for (const t of s.terms) s.weight += weights.idf(t);
      s.stated = intentsStated(s.text, intents);
    }
    return sentences;
  });

  // The best sentence of each passage, and the best of all: its chunk is the passage the answer comes from.
  const bests = passages.map((sentences) => {
    let top: Scored | null = null;
    for (const s of sentences) {
      if (s.terms.size === 0) continue;
      const score =
        share(s.weight) +
        (s.stated.length > 0 ? INTENT_BONUS : 0) -
        (aboutThirdParty(s.text) ? THIRD_PARTY_PENALTY : 0);
      if (!top || score > top.score) top = { s, score };
    }
    return top;
  });
  // Ties go to the better-ranked chunk.
  const rankedScore = (b: Scored) => b.score - b.s.rankIndex * 0.001;
  const chosen = bests.reduce<Scored | null>((a, b) => (b && (!a || rankedScore(b) > rankedScore(a)) ? b : a), null);
  if (!chosen) return emptyExtract(intents.length);
  const first = chosen.s;

  const picked = [first];
  const covered = new Set(first.terms);
  const statedSoFar = new Set(first.stated);
  const passage = passages[first.rankIndex] ?? [];
  while (picked.length < MAX_SENTENCES) {
    let next: Scored | null = null;
    for (const s of passage) {
      if (picked.some((p) => p === s || p.text === s.text)) continue;
      let added = 0;
      for (const t of s.terms) if (!covered.has(t) && !askTerms.has(t)) added += weights.idf(t);
      const newIntents = s.stated.filter((i) => !statedSoFar.has(i)).length;
      // The sentence right after a picked one carries on its subject when it refers back ("It is approved by…")
      // or adds to the answer; the one right before when it adds too ("Only the General Counsel can place a legal
      // hold. A legal hold suspends…"). A neighbour that only repeats the question's words is left out.
      const adds = added > 0 || newIntents > 0;
      const follows = picked.some(
        (p) => adjacent(s, p) && (adds || (s.at === p.at + 1 && CONTINUES.test(s.text) && p.terms.size > 0)),
      );
      if (!follows && share(added) < MIN_ADDED && newIntents === 0) continue;
      const score = share(added) + (newIntents > 0 ? INTENT_BONUS : 0) + (follows ? FOLLOWS_BONUS : 0);
      if (!next || score > next.score) next = { s, score };
    }
    if (!next) break;
    picked.push(next.s);
    for (const t of next.s.terms) covered.add(t);
    for (const i of next.s.stated) statedSoFar.add(i);
  }
  picked.sort((a, b) => a.at - b.at);

  const sources = [{ chunk: first.chunk, snippet: first.text, score: share(first.weight) }];
  // Other passages whose best sentence says as much are further sources (the same fact in another document), never
  // part of the text. A chunk's overlap with its neighbour repeats a sentence: that is no second source.
  for (const other of bests) {
    if (sources.length > MAX_CORROBORATING) break;
    if (!other || other.s.chunk.id === first.chunk.id || other.score < chosen.score - 1e-9) continue;
    if (sources.some((x) => x.snippet === other.s.text && x.chunk.documentId === other.s.chunk.documentId)) continue;
    sources.push({ chunk: other.s.chunk, snippet: other.s.text, score: share(other.s.weight) });
  }
  const opening = yesOpening(question, first.text, share(first.weight));
  return {
    text: opening + picked.map((p) => p.text.trim()).join(' '),
    shown: listItemsOnLines(opening + shownSentences(picked)),
    coverage: share([...covered].reduce((sum, t) => sum + weights.idf(t), 0)),
    firstCoverage: share(first.weight),
    passageText: first.chunk.text,
    matchedTerms: covered.size,
    intents: intents.length,
    intentsStated: statedSoFar.size,
    aboutThirdParty: aboutThirdParty(first.text),
    chunks: sources,
  };
}

/**
 * The picked sentences as the answer shows them: a sentence that starts a new line of the passage starts a new
 * line after one that does not end like a sentence (the items of a Word list, which the passage keeps on lines of
 * their own); otherwise sentences run on as prose, as in `text`.
 */
function shownSentences(picked: readonly Sentence[]): string {
  return picked
    .map((p, i) => {
      const before = picked[i - 1];
      if (!before) return p.text.trim();
      const newLine = before.paragraph !== p.paragraph && !ENDS_SENTENCE.test(before.text.trim());
      return (newLine ? '\n' : ' ') + p.text.trim();
    })
    .join('');
}

function emptyExtract(intents: number): Extract {
  return {
    text: '',
    shown: '',
    coverage: 0,
    firstCoverage: 0,
    passageText: '',
    matchedTerms: 0,
    intents,
    intentsStated: 0,
    aboutThirdParty: false,
    chunks: [],
  };
}
