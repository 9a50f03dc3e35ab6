import { TOPICS, type Topic } from './taxonomy-topics';
import { canonicalTerms } from './thesaurus';

/**
 * The security topic taxonomy applied to text. Questions, library entries and chunks are tagged with the topics
 * they mention, so that the ranker can reward a candidate about the same topics and penalise one that lacks a
 * topic the question asks about — "Are you ISO 27001 certified?" must not take the SOC 2 entry's answer, however
 * many words the two share.
 */

export { TOPICS, type Topic };

/** Content terms (after the thesaurus) a phrase's terms may be apart and still count as one mention. */
const WINDOW = 5;
/** Strength of a mention whose terms are near each other but not side by side in phrase order. */
const NEAR_QUALITY = 0.75;
/** Share of a topic's strength its parent receives, per level up. */
const INHERIT = 0.6;
/**
 * Least strength at which a candidate counts as covering a topic: a direct mention, or a child, grandchild or
 * great-grandchild of it (0.6, 0.36, 0.22).
 */
export const TOPIC_PRESENT = 0.2;

type CompiledPhrase = {
  readonly topic: number;
  readonly terms: readonly string[];
  /** The phrase's distinct terms other than the anchor. */
  readonly others: readonly string[];
  /** The term the phrase is indexed by: its rarest, so few phrases are tried per word. */
  readonly anchor: string;
  /** Written in double quotes: its terms must be side by side, in order. */
  readonly adjacent: boolean;
};

/**
 * The terms a topic phrase is matched by (the thesaurus applied, stop words dropped, stemmed) and whether they
 * must be adjacent. Exposed so that tests can check every phrase says something.
 */
export function phraseTerms(phrase: string): { terms: string[]; adjacent: boolean } {
  const trimmed = phrase.trim();
  const adjacent = trimmed.length > 1 && trimmed.startsWith('"') && trimmed.endsWith('"');
  return { terms: canonicalTerms(adjacent ? trimmed.slice(1, -1) : trimmed), adjacent };
}

const TOPIC_INDEX: ReadonlyMap<string, number> = new Map(TOPICS.map((topic, i) => [topic.id, i]));

/** Each topic's ancestors, nearest first; a cycle or an unknown parent simply ends the chain. */
const ANCESTORS: ReadonlyArray<readonly number[]> = TOPICS.map((topic) => {
  const chain: number[] = [];
  let parentId = topic.parent;
  while (parentId !== undefined) {
    const index = TOPIC_INDEX.get(parentId);
    if (index === undefined || chain.includes(index) || TOPICS[index] === topic) break;
    chain.push(index);
    parentId = TOPICS[index]?.parent;
  }
  return chain;
});

/** Every phrase of every topic, indexed by anchor term: one lookup per distinct word of the text. */
const BY_ANCHOR: ReadonlyMap<string, readonly CompiledPhrase[]> = (() => {
  const raw = TOPICS.flatMap((topic, index) =>
    topic.phrases.map((phrase) => ({ topic: index, ...phraseTerms(phrase) })).filter((p) => p.terms.length > 0),
  );
  const frequency = new Map<string, number>();
  for (const p of raw) for (const term of new Set(p.terms)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const index = new Map<string, CompiledPhrase[]>();
  const seen = new Set<string>();
  for (const p of raw) {
    const key = `${p.topic}:${p.adjacent ? '"' : ''}${p.terms.join(' ')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const distinct = [...new Set(p.terms)];
    const anchor = distinct.reduce((a, b) => ((frequency.get(b) ?? 0) < (frequency.get(a) ?? 0) ? b : a));
    const compiled: CompiledPhrase = { ...p, anchor, others: distinct.filter((term) => term !== anchor) };
    const list = index.get(anchor);
    if (list) list.push(compiled);
    else index.set(anchor, [compiled]);
  }
  return index;
})();

/** Sentences, so that a phrase's terms are never collected from two different statements. */
function sentences(text: string): string[] {
  return text.split(/[.!?;]+(?=\s|$)|[\r\n]+/);
}

/** How well a phrase is mentioned around the given positions of its anchor: 1, NEAR_QUALITY or 0. */
function mention(
  phrase: CompiledPhrase,
  terms: readonly string[],
  positions: ReadonlyMap<string, readonly number[]>,
  anchorAt: readonly number[],
): number {
  const offset = phrase.terms.indexOf(phrase.anchor);
  let best = 0;
  for (const at of anchorAt) {
    const start = at - offset;
    if (phrase.terms.every((term, k) => terms[start + k] === term)) return 1;
    if (phrase.adjacent || best > 0) continue;
    const near = phrase.others.every((term) =>
      (positions.get(term) ?? []).some((p) => p !== at && Math.abs(p - at) <= WINDOW),
    );
    if (near) best = NEAR_QUALITY;
  }
  return best;
}

/**
 * The topics a text mentions, each with a strength in (0, 1], strongest first. A topic's strength combines its
 * phrase mentions (1 for a phrase as written, 0.75 for its terms near each other; several mentions add up like
 * independent evidence, 1 − Π(1 − q)); every ancestor of a mentioned topic gets 0.6 of it per level up unless
 * mentioned more strongly itself. Works on questions, entries and document chunks alike.
 */
export function topicsOf(text: string): Map<string, number> {
  const miss = new Float64Array(TOPICS.length).fill(1);
  const mentioned = new Set<number>();
  for (const sentence of sentences(text)) {
    const terms = canonicalTerms(sentence);
    if (terms.length === 0) continue;
    const positions = new Map<string, number[]>();
    terms.forEach((term, i) => {
      const list = positions.get(term);
      if (list) list.push(i);
      else positions.set(term, [i]);
    });
    for (const [term, anchorAt] of positions) {
      for (const phrase of BY_ANCHOR.get(term) ?? []) {
        const quality = mention(phrase, terms, positions, anchorAt);
        if (quality === 0) continue;
        miss[phrase.topic] = (miss[phrase.topic] ?? 1) * (1 - quality);
        mentioned.add(phrase.topic);
      }
    }
  }
  const strength = new Map<number, number>();
  const raise = (topic: number, value: number): void => {
    if (value > (strength.get(topic) ?? 0)) strength.set(topic, value);
  };
  for (const topic of mentioned) {
    const direct = 1 - (miss[topic] ?? 1);
    raise(topic, direct);
    let inherited = direct;
    for (const ancestor of ANCESTORS[topic] ?? []) {
      inherited *= INHERIT;
      raise(ancestor, inherited);
    }
  }
  const out = new Map<string, number>();
  for (const [topic, value] of [...strength].sort((a, b) => b[1] - a[1] || a[0] - b[0])) {
    const id = TOPICS[topic]?.id;
    if (id) out.set(id, value);
  }
  return out;
}

/**
 * The most specific topics of a topic map: those none of whose descendants is also in the map. For a question,
 * what it actually asks about ("iso27001", not the "certifications" it inherits).
 */
export function specificTopics(topics: ReadonlyMap<string, number>): string[] {
  const covered = new Set<string>();
  for (const id of topics.keys()) {
    const index = TOPIC_INDEX.get(id);
    if (index === undefined) continue;
    for (const ancestor of ANCESTORS[index] ?? []) {
      const ancestorId = TOPICS[ancestor]?.id;
      if (ancestorId) covered.add(ancestorId);
    }
  }
  return [...topics.keys()].filter((id) => !covered.has(id));
}

/** How far a candidate covers what a question is about. */
export type TopicAgreement = {
  /**
   * Σ min(question, candidate strength) / Σ question strength over the question's topics: 1 when the candidate
   * covers every topic at least as strongly, 0 when it covers none — and 0 when the question has no topics,
   * which is no evidence either way (check `questionTopics.size`).
   */
  score: number;
  /** The question's specific topics the candidate lacks (strength below TOPIC_PRESENT), strongest first. */
  missing: string[];
  /** The question's topics the candidate covers, strongest first. */
  shared: string[];
};

/**
 * Agreement between a question's topics and a candidate's (both from topicsOf). Candidate topics the question
 * does not mention cost nothing: a document chunk is about many things.
 */
export function topicAgreement(
  questionTopics: ReadonlyMap<string, number>,
  candidateTopics: ReadonlyMap<string, number>,
): TopicAgreement {
  let total = 0;
  let agreed = 0;
  const shared: string[] = [];
  for (const [id, weight] of questionTopics) {
    if (!(weight > 0)) continue;
    const theirs = candidateTopics.get(id) ?? 0;
    total += weight;
    agreed += Math.min(weight, theirs);
    if (theirs >= TOPIC_PRESENT) shared.push(id);
  }
  const missing = specificTopics(questionTopics).filter((id) => (candidateTopics.get(id) ?? 0) < TOPIC_PRESENT);
  return { score: total > 0 ? agreed / total : 0, missing, shared };
}

/** The topic with this id, if any. */
export function topicById(id: string): Topic | undefined {
  const index = TOPIC_INDEX.get(id);
  return index === undefined ? undefined : TOPICS[index];
}

/** A topic's ancestors' ids, nearest first. */
export function ancestorsOf(id: string): string[] {
  const index = TOPIC_INDEX.get(id);
  if (index === undefined) return [];
  return (ANCESTORS[index] ?? []).flatMap((a) => TOPICS[a]?.id ?? []);
}
