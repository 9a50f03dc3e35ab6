import { and, eq, inArray } from 'drizzle-orm';
import { canonicalAnswers as ca } from '../db/schema';
import { libraryFingerprint } from '../modules/knowledge/hygiene';
import type { Scope } from './retrieve';
import { termsOf } from './terms';

/**
 * How rare each term is in the workspace's library (document frequency over entry questions and tags), so that
 * "encrypt" and "at rest" count for more than "data" when matching a paraphrase. Rebuilt when the library changes,
 * checked at most every few seconds: slightly stale weights only shift ranking a little.
 */
export type TermWeights = {
  idf: (term: string) => number;
  /** Whether any library entry's question or tags uses the term. */
  known: (term: string) => boolean;
};

const CHECK_EVERY_MS = 5000;
const cache = new Map<string, { checkedAt: number; fingerprint: string; weights: TermWeights }>();

function build(df: Map<string, number>, n: number): TermWeights {
  const unseen = Math.log(1 + (n + 0.5) / 1.5);
  return {
    idf: (term) => {
      const d = df.get(term);
      // A term no entry uses still counts, at the weight of a term one entry uses: the question asks about it.
      return d === undefined ? unseen : Math.log(1 + (n - d + 0.5) / (d + 0.5));
    },
    known: (term) => df.has(term),
  };
}

export async function termWeights(s: Scope): Promise<TermWeights> {
  const hit = cache.get(s.workspaceId);
  if (hit && Date.now() - hit.checkedAt < CHECK_EVERY_MS) return hit.weights;
  const fp = await libraryFingerprint(s);
  if (hit && hit.fingerprint === fp) {
    hit.checkedAt = Date.now();
    return hit.weights;
  }
  const rows = await s.db
    .select({ question: ca.question, tags: ca.tags })
    .from(ca)
    .where(
      and(
        eq(ca.organizationId, s.organizationId),
        eq(ca.workspaceId, s.workspaceId),
        inArray(ca.status, ['approved', 'draft']),
      ),
    );
  const df = new Map<string, number>();
  for (const r of rows) {
    for (const t of new Set(termsOf(`${r.question} ${r.tags.join(' ')}`))) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const weights = build(df, rows.length);
  if (cache.size > 200) cache.delete(cache.keys().next().value ?? '');
  cache.set(s.workspaceId, { checkedAt: Date.now(), fingerprint: fp, weights });
  return weights;
}
