import { and, ne } from 'drizzle-orm';
import { canonicalAnswers as ca } from '../../db/schema';
import type { LibraryIssue } from '../../../common/schemas/knowledge';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';
import { changeCount } from '../../engine/retrieval/change-count';
import { loadAnswers } from './queries';
import { presentAnswer } from './presenters';
import { answerFacts, contentWords, disagreement, similarPairs, type AnswerFacts } from './similarity';

/** Word-set similarity from which two questions count as the same question (tuned on the hygiene tests' pairs). */
export const SAME_QUESTION_THRESHOLD = 0.7;
/** The list shows at most this many pairs, conflicts first; a library with more needs cleaning in rounds anyway. */
const MAX_ISSUES = 300;
/**
 * Pair finding stops here. A real library has a few dozen pairs; a generated one (the same question for every
 * system) can have hundreds of thousands, and counting them all would cost seconds for nothing anyone reads.
 */
const MAX_PAIRS = 5000;

type Pair = { kind: 'duplicate' | 'conflict'; similarity: number; reason: string; a: string; b: string };

// Finding pairs reads every live entry, so the result is kept per workspace until the library changes: the
// workspace's library change count moves on every insert, edit, archive and delete.
const cache = new Map<string, { fingerprint: string; pairs: Pair[] }>();
const CACHE_WORKSPACES = 200;

/** Near-duplicate and conflicting pairs among the workspace's approved and draft entries. */
export async function findPairs(t: TenantCtx): Promise<Pair[]> {
  const fp = await changeCount(t, 'library');
  // Keyed by organization too, like the engine's library index: a fingerprint never tells tenants apart.
  const key = `${t.organizationId}/${t.workspaceId}`;
  const hit = cache.get(key);
  if (hit && hit.fingerprint === fp) return hit.pairs;

  const rows = await t.db
    .select({ id: ca.id, question: ca.question, answer: ca.answer })
    .from(ca)
    .where(and(inTenant(ca, t), ne(ca.status, 'archived')));
  const found = similarPairs(
    rows.map((r) => contentWords(r.question)),
    SAME_QUESTION_THRESHOLD,
    MAX_PAIRS,
  );
  const facts = new Map<number, AnswerFacts>();
  const factsOf = (i: number, answer: string) => {
    let f = facts.get(i);
    if (!f) facts.set(i, (f = answerFacts(answer)));
    return f;
  };
  const pairs: Pair[] = [];
  for (const { a, b, similarity } of found) {
    const ra = rows[a];
    const rb = rows[b];
    if (!ra || !rb) continue;
    const why = disagreement(factsOf(a, ra.answer), factsOf(b, rb.answer));
    pairs.push({
      kind: why ? 'conflict' : 'duplicate',
      similarity: Math.round(similarity * 100),
      reason:
        why ??
        (ra.answer.trim() === rb.answer.trim() ? 'Same question, same answer.' : 'The questions ask the same thing.'),
      a: ra.id,
      b: rb.id,
    });
  }
  pairs.sort((x, y) => (x.kind === y.kind ? y.similarity - x.similarity : x.kind === 'conflict' ? -1 : 1));

  if (cache.size >= CACHE_WORKSPACES) cache.delete(cache.keys().next().value ?? '');
  cache.set(key, { fingerprint: fp, pairs });
  return pairs;
}

export async function listLibraryIssues(t: TenantCtx): Promise<LibraryIssue[]> {
  const pairs = (await findPairs(t)).slice(0, MAX_ISSUES);
  const records = await loadAnswers(t, [...new Set(pairs.flatMap((p) => [p.a, p.b]))]);
  const byId = new Map(records.map((r) => [r.id, presentAnswer(r)]));
  const issues: LibraryIssue[] = [];
  for (const p of pairs) {
    const a = byId.get(p.a);
    const b = byId.get(p.b);
    if (a && b) issues.push({ kind: p.kind, similarity: p.similarity, reason: p.reason, entries: [a, b] });
  }
  return issues;
}

/** Conflicting pairs in the workspace (organization stats' openConflicts). */
export async function countOpenConflicts(t: TenantCtx): Promise<number> {
  return (await findPairs(t)).filter((p) => p.kind === 'conflict').length;
}
