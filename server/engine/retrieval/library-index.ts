import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { canonicalAnswers } from '../../db/schema';
import { inTenant } from '../../tenancy';
import type { TenantCtx } from '../../context';
import { termsOf } from '../text/thesaurus';
import { trigramSimilarity } from '../text/trigram';
import { MAX_QUESTION_TERMS } from '../text/question-bounds';
import { changeCount } from './change-count';

/**
 * The workspace's library (approved and draft entries) held in memory as an inverted index of the engine's own
 * terms (thesaurus-folded, stemmed), so that finding the entries that may answer a question costs no query on a
 * 10,000-entry library — and matches MFA to "two-factor", which full-text search would not. Rebuilt when the
 * library changes: every lookup compares the workspace's change count (change-count.ts, one indexed lookup), so an
 * entry saved a moment ago, by this process or another, is found at once.
 */
export type Scope = Pick<TenantCtx, 'db' | 'organizationId' | 'workspaceId'>;

export type IndexedEntry = {
  id: string;
  question: string;
  answer: string;
  status: 'approved' | 'draft';
  tags: string[];
  updatedAt: Date;
  lastVerifiedAt: Date | null;
};

export type TermWeights = {
  idf: (term: string) => number;
  /** Whether any library entry's question or tags uses the term. */
  known: (term: string) => boolean;
};

export type LibraryIndex = {
  /** The workspace's library change count the index was built at. */
  fingerprint: string;
  /** When the fingerprint was last compared with the database's. */
  checkedAt: number;
  entries: IndexedEntry[];
  /** Entry id → its place in `entries`. */
  byId: Map<string, number>;
  /** Term → entries whose question or tags use it. */
  questionPostings: Map<string, number[]>;
  /** Term → entries whose answer (only) uses it. */
  answerPostings: Map<string, number[]>;
  weights: TermWeights;
};

/** A question term found only in an entry's answer counts this much of one found in its question or tags. */
const ANSWER_SHARE = 0.3;
/** Workspaces kept in memory per process; the least recently built goes first. */
const MAX_CACHED = 50;

const cache = new Map<string, LibraryIndex>();
const building = new Map<string, Promise<LibraryIndex>>();
type Rows<T> = { rows: T[] };
const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

function weightsFrom(df: Map<string, number>, n: number): TermWeights {
  const unseen = Math.log(1 + (n + 0.5) / 1.5);
  return {
    // A term no entry uses still counts, at the weight of a term one entry uses: the question asks about it.
    idf: (term) => {
      const d = df.get(term);
      return d === undefined ? unseen : Math.log(1 + (n - d + 0.5) / (d + 0.5));
    },
    known: (term) => df.has(term),
  };
}

function push(map: Map<string, number[]>, term: string, i: number) {
  const list = map.get(term);
  if (list) list.push(i);
  else map.set(term, [i]);
}

const BUILD_SLICE = 1000;

async function build(s: Scope, fingerprint: string): Promise<LibraryIndex> {
  const res = (await s.db.execute(sql`
    select id, question, answer, status, tags, updated_at as "updatedAt", last_verified_at as "lastVerifiedAt"
    from canonical_answers
    where ${inTenant(canonicalAnswers, s)}
      and status in ('approved', 'draft')`)) as Rows<Record<string, unknown>>;
  const entries: IndexedEntry[] = [];
  const questionPostings = new Map<string, number[]>();
  const answerPostings = new Map<string, number[]>();
  const df = new Map<string, number>();
  for (const r of res.rows) {
    const i = entries.length;
    // Folding a large library's terms takes ~40 ms per thousand entries on this thread: let other requests run
    // between thousands rather than hold them all for the whole build (0.4 s for 10,000 entries, bench:ask).
    if (i > 0 && i % BUILD_SLICE === 0) await yieldToEventLoop();
    const tags = Array.isArray(r.tags) ? r.tags.map(String) : [];
    const entry: IndexedEntry = {
      id: String(r.id),
      question: String(r.question),
      answer: String(r.answer),
      status: r.status === 'draft' ? 'draft' : 'approved',
      tags,
      updatedAt: toDate(r.updatedAt),
      lastVerifiedAt: r.lastVerifiedAt ? toDate(r.lastVerifiedAt) : null,
    };
    entries.push(entry);
    const qTerms = new Set(termsOf(`${entry.question} ${tags.join(' ')}`));
    for (const t of qTerms) {
      push(questionPostings, t, i);
      df.set(t, (df.get(t) ?? 0) + 1);
    }
    for (const t of new Set(termsOf(entry.answer))) if (!qTerms.has(t)) push(answerPostings, t, i);
  }
  return {
    fingerprint,
    checkedAt: Date.now(),
    entries,
    byId: new Map(entries.map((e, i) => [e.id, i])),
    questionPostings,
    answerPostings,
    weights: weightsFrom(df, entries.length),
  };
}

/** Change counts only grow (change-count.ts): a higher one is a later library. */
function isNewer(a: string, b: string): boolean {
  try {
    return BigInt(a) > BigInt(b);
  } catch {
    return false;
  }
}

/** The workspace's index, rebuilt when its library changed since it was last built. */
export async function libraryIndex(
  s: Scope,
  /** `changes`: the workspace's library change count, when the caller has just read it (workspaceChanges). */
  opts: { freshWithinMs?: number; changes?: string } = {},
): Promise<LibraryIndex> {
  // Keyed by organization too: the fingerprint alone cannot tell two tenants' libraries apart (both empty, say).
  const key = `${s.organizationId}/${s.workspaceId}`;
  const cached = cache.get(key);
  // Background work may take an index checked a moment ago (an assessment answers hundreds of questions a
  // second); a person asking always gets the library as it is now.
  if (cached && opts.freshWithinMs && Date.now() - cached.checkedAt < opts.freshWithinMs) return cached;
  const fingerprint = opts.changes ?? (await changeCount(s, 'library'));
  const hit = cache.get(key);
  if (hit && hit.fingerprint === fingerprint) {
    hit.checkedAt = Date.now();
    return hit;
  }
  // Asks arriving together after a change share one rebuild instead of each reading the whole library.
  const flightKey = `${key}@${fingerprint}`;
  let pending = building.get(flightKey);
  if (!pending) {
    pending = build(s, fingerprint).finally(() => building.delete(flightKey));
    building.set(flightKey, pending);
  }
  const index = await pending;
  // Builds take turns with other work, so an older build can finish after a newer one: never put it back over it.
  const current = cache.get(key);
  if (current && isNewer(current.fingerprint, index.fingerprint)) return index;
  cache.delete(key);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value ?? '');
  cache.set(key, index);
  return index;
}

export type IndexHit = IndexedEntry & {
  /** Rarity-weighted share of the question's terms the entry has (answer-only terms count less), 0–1. */
  rank: number;
  /** Character-trigram similarity of the two questions (pg_trgm's measure). */
  trigram: number;
};

/** The entries sharing the most (rarity-weighted) terms with the question, best first. */
export function searchIndex(index: LibraryIndex, question: string, limit: number): IndexHit[] {
  const { idf } = index.weights;
  // A long question's rarest terms say what it is about; the common ones would each touch thousands of entries.
  const all = termsOf(question);
  const terms =
    all.length <= MAX_QUESTION_TERMS ? all : [...all].sort((a, b) => idf(b) - idf(a)).slice(0, MAX_QUESTION_TERMS);
  const total = terms.reduce((sum, t) => sum + idf(t), 0);
  if (total === 0) return [];
  // Scores in a flat array plus the list of entries touched: a common term touches thousands of entries, and a
  // Map and a full sort of them cost more than the rest of the lookup.
  const scores = new Float64Array(index.entries.length);
  const touched: number[] = [];
  const add = (i: number, w: number) => {
    if (scores[i] === 0) touched.push(i);
    scores[i] = (scores[i] ?? 0) + w;
  };
  for (const t of terms) {
    const w = idf(t);
    if (!(w > 0)) continue;
    for (const i of index.questionPostings.get(t) ?? []) add(i, w);
    for (const i of index.answerPostings.get(t) ?? []) add(i, ANSWER_SHARE * w);
  }
  return topK(touched, scores, limit).flatMap((i) => {
    const entry = index.entries[i];
    const score = scores[i] ?? 0;
    return entry ? [{ ...entry, rank: score / total, trigram: trigramSimilarity(question, entry.question) }] : [];
  });
}

/**
 * The `k` best-scoring of `candidates`, best first, without sorting all of them. Ties keep the candidates' order
 * (the order the question's terms reached them), as the stable sort it replaces did.
 */
function topK(candidates: number[], scores: Float64Array, k: number): number[] {
  const score = (i: number) => scores[i] ?? 0;
  if (candidates.length <= k * 4) return candidates.sort((a, b) => score(b) - score(a)).slice(0, k);
  const best: number[] = [];
  for (const i of candidates) {
    // Every candidate comes after those already kept, so only a strictly higher score goes ahead of one.
    if (best.length === k && !(score(i) > score(best[k - 1] ?? 0))) continue;
    let at = best.length === k ? k - 1 : best.length;
    while (at > 0 && score(i) > score(best[at - 1] ?? 0)) at--;
    best.splice(at, 0, i);
    if (best.length > k) best.pop();
  }
  return best;
}
