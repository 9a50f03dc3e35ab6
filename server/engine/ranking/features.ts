import { intentsOf, intentsStated, type Intent } from '../text/answer-intent';
import type { EntryCandidate } from '../retrieval/retrieve';
import type { TermWeights } from '../retrieval/library-index';
import { termsOf } from '../text/thesaurus';
import { topicAgreement, topicsOf } from '../text/taxonomy';

/**
 * What the ranker knows about one (question, library entry) pair. Every feature is a share or a small count, so
 * the same model works for a 50-entry library and a 10,000-entry one. The model in `entry-model.ts` is fitted on
 * these by `bench/quality/fit.ts`; add a feature here and there together.
 */
export const ENTRY_FEATURES = [
  /** Rarity-weighted share of the question's terms found in the entry's question and tags. */
  'questionCoverage',
  /** The same share, counting the entry's answer too. */
  'fullCoverage',
  /** Share of the entry question's own (weighted) terms that the question mentions: narrow entries beat broad ones. */
  'entryCoverage',
  /** Character-trigram similarity of the two questions. */
  'trigram',
  /** How much of the question's topics (taxonomy) the entry is about. */
  'topicAgreement',
  /** Specific topics of the question (ISO 27001, SOC 2…) the entry never mentions, capped at 2. */
  'topicsMissing',
  /** 1 when the question names no topic of the taxonomy: agreement then says nothing. */
  'noTopics',
  /**
   * Weighted share of the question's terms that no library entry uses at all and this entry's answer does not
   * mention either: a question about HITRUST is not answered by the ISO entry, however much else they share.
   */
  'novelTerms',
  /** The entry's full-text rank (question above tags above answer) relative to the best candidate's. */
  'relativeRank',
  /** 1 / number of question terms: a one-word question matches on little evidence. */
  'shortQuestion',
  /**
   * 1 when the question asks for a kind of fact (how long, how often, who…) that the entry's answer states none
   * of: "How many vendor tiers?" is not answered by an entry that never gives a number.
   */
  'factMissing',
  /**
   * How much more of the question the documents' best passage covers than this entry does (0 when it covers
   * less): the entry is then probably about the topic but not the fact asked.
   */
  'documentAdvantage',
  /**
   * Cosine similarity of the question's embedding to the entry's (question and answer), 0 without embeddings.
   * Models fitted without an embedder give it no weight.
   */
  'vector',
  /** How far this entry's similarity is below the best candidate's (0 for the nearest entry). */
  'vectorGap',
] as const;

export type EntryFeatures = Record<(typeof ENTRY_FEATURES)[number], number>;

/** The question's side, computed once per question. */
export type QuestionProfile = {
  terms: ReadonlySet<string>;
  topics: Map<string, number>;
  intents: Intent[];
};

export function profileQuestion(question: string): QuestionProfile {
  return { terms: new Set(termsOf(question)), topics: topicsOf(question), intents: intentsOf(question) };
}

function weightOf(terms: Iterable<string>, w: TermWeights): number {
  let sum = 0;
  for (const t of terms) sum += w.idf(t);
  return sum;
}

/** What the ranker derives from an entry's own text: the same for every question, so computed once per version. */
type EntryProfile = {
  entryTerms: Set<string>;
  answerTerms: Set<string>;
  /** Topics of the question and tags, with the answer's as weaker evidence; computed on first need. */
  topics: Map<string, number> | null;
};

/**
 * Entry profiles by id and version. Folding an entry's text through the thesaurus and the taxonomy is most of the
 * cost of ranking, and the same entries come up again and again (a 1,000-question assessment, a busy workspace).
 * An edit changes `updatedAt` and the texts' lengths, so a stale profile is never used; the least recently used
 * go first.
 */
const PROFILES_MAX = 20_000;
const profiles = new Map<string, EntryProfile>();

function profileOf(c: EntryCandidate): EntryProfile {
  const key = `${c.id}:${c.updatedAt.getTime()}:${c.question.length}:${c.answer.length}:${c.tags.join('\u0001')}`;
  const hit = profiles.get(key);
  if (hit) {
    profiles.delete(key);
    profiles.set(key, hit);
    return hit;
  }
  const made: EntryProfile = {
    entryTerms: new Set(termsOf(`${c.question} ${c.tags.join(' ')}`)),
    answerTerms: new Set(termsOf(c.answer)),
    topics: null,
  };
  if (profiles.size >= PROFILES_MAX) profiles.delete(profiles.keys().next().value ?? '');
  profiles.set(key, made);
  return made;
}

function entryTopicsOf(c: EntryCandidate, p: EntryProfile): Map<string, number> {
  if (!p.topics) {
    // Judged on the entry's question and tags, with its answer as weaker evidence.
    const topics = topicsOf(`${c.question}. ${c.tags.join(', ')}`);
    for (const [id, strength] of topicsOf(c.answer)) topics.set(id, Math.max(topics.get(id) ?? 0, strength * 0.5));
    p.topics = topics;
  }
  return p.topics;
}

export function entryFeatures(
  q: QuestionProfile,
  c: EntryCandidate,
  w: TermWeights,
  bestRank = 0,
  documentPassage = 0,
  bestVector = 0,
): EntryFeatures {
  const profile = profileOf(c);
  const { entryTerms, answerTerms } = profile;
  const qTerms = [...q.terms];
  const total = weightOf(qTerms, w) || 1;
  const inEntry = qTerms.filter((t) => entryTerms.has(t));
  const anywhere = qTerms.filter((t) => entryTerms.has(t) || answerTerms.has(t));
  const missing = qTerms.filter((t) => !entryTerms.has(t) && !answerTerms.has(t));
  const novel = missing.filter((t) => !w.known(t));

  let agreement = 0;
  let topicsMissing = 0;
  if (q.topics.size > 0) {
    const a = topicAgreement(q.topics, entryTopicsOf(c, profile));
    agreement = a.score;
    topicsMissing = Math.min(2, a.missing.length);
  }

  return {
    questionCoverage: weightOf(inEntry, w) / total,
    fullCoverage: weightOf(anywhere, w) / total,
    entryCoverage: entryTerms.size ? weightOf(inEntry, w) / (weightOf(entryTerms, w) || 1) : 0,
    trigram: c.trigram,
    topicAgreement: agreement,
    topicsMissing,
    noTopics: q.topics.size === 0 ? 1 : 0,
    novelTerms: weightOf(novel, w) / total,
    relativeRank: bestRank > 0 ? c.rank / bestRank : 0,
    shortQuestion: 1 / Math.max(1, q.terms.size),
    factMissing: q.intents.length > 0 && intentsStated(c.answer, q.intents).length === 0 ? 1 : 0,
    documentAdvantage: Math.max(0, documentPassage - weightOf(anywhere, w) / total),
    vector: c.vector ?? 0,
    vectorGap: Math.max(0, bestVector - (c.vector ?? 0)),
  };
}

/**
 * What the answer calibrator knows about the best-ranked entry of a question, next to the others: how far it leads
 * (in the ranker's logit and in meaning), whether the lexical ranker and the embedding agree on it, and the
 * evidence against it. Fitted as a logistic model of "this entry answers the question" (models.json `answer`); its
 * probability is the confidence shown with a library answer.
 */
export const ANSWER_FEATURES = [
  /** The ranker's logit of the best entry. */
  'logit',
  /** Its lead over the second entry's logit (capped at 5 when there is no second). */
  'margin',
  /** log of the ranker's own probability (the conditional logit with "none"). */
  'logConfidence',
  /** Embedding similarity of the best entry. */
  'vector',
  /** How far it is below the nearest entry by meaning (0 when it is the nearest). */
  'vectorBelowNearest',
  /** When it is the nearest by meaning, its lead over the next nearest (else 0). */
  'vectorLead',
  /** 1 when the ranker's best is also the nearest by meaning. */
  'vectorAgrees',
  'questionCoverage',
  'fullCoverage',
  'topicsMissing',
  'novelTerms',
  'factMissing',
  'documentAdvantage',
] as const;

export type AnswerFeatures = Record<(typeof ANSWER_FEATURES)[number], number>;

/** The calibrator's features, from the best entry's and the runner-up's scores and every candidate's similarity. */
export function answerFeatures(
  best: { logit: number; confidence: number; vector: number; features: EntryFeatures },
  second: { logit: number } | undefined,
  vectors: readonly number[],
): AnswerFeatures {
  const sorted = [...vectors].sort((a, b) => b - a);
  const nearest = sorted[0] ?? 0;
  const agrees = best.vector >= nearest;
  const f = best.features;
  return {
    logit: best.logit,
    margin: second ? Math.min(5, best.logit - second.logit) : 5,
    logConfidence: Math.log(best.confidence + 1e-6),
    vector: best.vector,
    vectorBelowNearest: Math.max(0, nearest - best.vector),
    vectorLead: agrees ? nearest - (sorted[1] ?? 0) : 0,
    vectorAgrees: agrees ? 1 : 0,
    questionCoverage: f.questionCoverage,
    fullCoverage: f.fullCoverage,
    topicsMissing: f.topicsMissing,
    novelTerms: f.novelTerms,
    factMissing: f.factMissing,
    documentAdvantage: f.documentAdvantage,
  };
}

/**
 * What the decision "do the documents answer this?" knows, for the extractive answer composed from the retrieved
 * chunks. Fitted as a logistic model (DOCUMENT_MODEL in models.ts) by bench:fit.
 */
export const DOCUMENT_FEATURES = [
  /** Rarity-weighted share of the question's terms in the chosen sentences. */
  'coverage',
  /** The same share for the first (best) sentence alone. */
  'firstCoverage',
  /** …for the whole passage (chunk) the first sentence comes from. */
  'passageCoverage',
  /** 1 when the question asks for a kind of fact (how long, how often, who, which tool…). */
  'asksFact',
  /** Share of those kinds of fact the sentences state. */
  'factsStated',
  /** Specific topics of the question the passages never mention, capped at 2. */
  'topicsMissing',
  /** The best library entry's confidence: a question about a library topic is rarely the documents' to answer. */
  'libraryConfidence',
  /** Cosine similarity of the question's embedding to the passage the answer comes from (0 without embeddings). */
  'passageVector',
  /** The best similarity of any retrieved chunk (0 without embeddings). */
  'bestChunkVector',
  /** 1 when the answer's first sentence is about a third party (a cloud provider's certificate is not ours). */
  'aboutThirdParty',
  /** Cosine similarity of the question's embedding to the extractive answer's own (0 without embeddings). */
  'extractVector',
] as const;

export type DocumentFeatures = Record<(typeof DOCUMENT_FEATURES)[number], number>;

export type DocumentEvidence = {
  coverage: number;
  firstCoverage: number;
  passageText: string;
  chunkTexts: string[];
  intents: number;
  intentsStated: number;
  /** Embedding similarity of the passage used and of the best retrieved chunk, when embeddings are on. */
  passageVector?: number;
  bestChunkVector?: number;
  extractVector?: number;
  aboutThirdParty?: boolean;
};

export function documentFeatures(
  q: QuestionProfile,
  e: DocumentEvidence,
  w: TermWeights,
  libraryConfidence: number,
): DocumentFeatures {
  const qTerms = [...q.terms];
  const total = weightOf(qTerms, w) || 1;
  const passage = new Set(termsOf(e.passageText));
  let topicsMissing = 0;
  if (q.topics.size > 0) {
    topicsMissing = Math.min(2, topicAgreement(q.topics, topicsOf(e.chunkTexts.join('\n'))).missing.length);
  }
  return {
    coverage: e.coverage,
    firstCoverage: e.firstCoverage,
    passageCoverage:
      weightOf(
        qTerms.filter((t) => passage.has(t)),
        w,
      ) / total,
    asksFact: e.intents > 0 ? 1 : 0,
    factsStated: e.intents > 0 ? e.intentsStated / e.intents : 0,
    topicsMissing,
    libraryConfidence,
    passageVector: e.passageVector ?? 0,
    bestChunkVector: e.bestChunkVector ?? 0,
    aboutThirdParty: e.aboutThirdParty ? 1 : 0,
    extractVector: e.extractVector ?? 0,
  };
}
