import { and, asc, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import { assessmentBatches as ab, assessmentQuestions as aq, documents } from '../db/schema';
import type { DbOrTx } from '../db/client';
import { CLAIM_NOW } from './claim-time';

export type ClaimedQuestion = {
  id: string;
  batchId: string;
  organizationId: string;
  workspaceId: string;
  question: string;
  attempts: number;
  claimedAt: Date | null;
};

type Rows<T> = { rows: T[] };
/** Batches looked at beyond one per free lane, in case some have nothing left to claim. */
const SPARE_BATCHES = 4;

/**
 * Claims up to `limit` assessment questions waiting for an answer (ARCHITECTURE §7): pending ones, in question order, and
 * ones whose claim is older than `staleMs` (their worker died). SKIP LOCKED lets several workers claim at once
 * without ever taking the same row.
 *
 * Which batches they come from is fair, not first-in-first-out: organizations take turns (the one whose batches
 * were claimed from longest ago goes first), and within an organization its batches take turns, so a one-question
 * assessment is answered next to another tenant's 5,000-question one instead of after it. The turns are kept on
 * the batches (`last_claimed_at`), so every worker process on one database takes the same turns.
 */
export async function claimQuestions(
  db: DbOrTx,
  limit: number,
  staleMs: number,
  /** A stale claim on a question tried this often is not taken up again (failExhaustedClaims fails it). */
  maxAttempts = 2_147_483_647,
): Promise<ClaimedQuestion[]> {
  if (limit <= 0) return [];
  const staleBefore = new Date(Date.now() - staleMs);
  // A batch has questions waiting exactly while it is processing (settleBatch keeps it so).
  const turns = (await db.execute(sql`
    with b as (
      select id, organization_id, created_at,
        row_number() over (partition by organization_id order by last_claimed_at asc nulls first, created_at, id)
          as turn,
        max(last_claimed_at) over (partition by organization_id) as org_last
      from assessment_batches
      where status = 'processing'
    )
    select id from b
    order by turn, org_last asc nulls first, created_at, id
    limit ${limit + SPARE_BATCHES}`)) as Rows<{ id: string }>;
  const batchIds = turns.rows.map((r) => String(r.id));
  if (batchIds.length === 0) return [];
  // The free lanes dealt out over the first batches in turn (one each while there are more batches than lanes);
  // the spare batches stand in when one of those has nothing left to claim (its last questions are being answered).
  const first = batchIds.slice(0, limit);
  const share = new Map<string, number>();
  for (let i = 0; i < limit; i += 1) {
    const id = first[i % first.length] ?? '';
    share.set(id, (share.get(id) ?? 0) + 1);
  }
  for (const batchId of batchIds.slice(limit)) share.set(batchId, 0);
  const claimed: ClaimedQuestion[] = [];
  for (const [batchId, planned] of share) {
    const n = planned > 0 ? planned : limit - claimed.length;
    if (n <= 0) continue;
    const waiting = db
      .select({ id: aq.id })
      .from(aq)
      .where(
        and(
          eq(aq.batchId, batchId),
          or(
            eq(aq.status, 'pending'),
            and(eq(aq.status, 'processing'), lt(aq.claimedAt, staleBefore), lt(aq.attempts, maxAttempts)),
          ),
        ),
      )
      .orderBy(asc(aq.orderIndex))
      .limit(n)
      .for('update', { skipLocked: true });
    const rows = await db
      .update(aq)
      .set({
        status: 'processing',
        claimedAt: CLAIM_NOW,
        attempts: sql`${aq.attempts} + 1`,
      })
      .where(inArray(aq.id, waiting))
      .returning({
        id: aq.id,
        batchId: aq.batchId,
        organizationId: aq.organizationId,
        workspaceId: aq.workspaceId,
        question: aq.question,
        attempts: aq.attempts,
        claimedAt: aq.claimedAt,
      });
    claimed.push(...rows);
  }
  const served = [...new Set(claimed.map((c) => c.batchId))];
  if (served.length > 0) {
    await db
      .update(ab)
      .set({ lastClaimedAt: sql`clock_timestamp()` })
      .where(inArray(ab.id, served));
  }
  return claimed;
}

/**
 * Fails the questions whose claims went stale after their last allowed try: a question that kills or hangs its
 * worker every time would otherwise be taken up again forever and keep its batch processing. Returns their batches
 * (to settle).
 */
export async function failExhaustedClaims(
  db: DbOrTx,
  staleMs: number,
  maxAttempts: number,
  reason: string,
): Promise<Array<{ batchId: string; organizationId: string; workspaceId: string }>> {
  const rows = await db
    .update(aq)
    .set({ status: 'failed', errorMessage: reason, claimedAt: null, updatedAt: new Date() })
    .where(
      and(eq(aq.status, 'processing'), lt(aq.claimedAt, new Date(Date.now() - staleMs)), gte(aq.attempts, maxAttempts)),
    )
    .returning({ batchId: aq.batchId, organizationId: aq.organizationId, workspaceId: aq.workspaceId });
  return [...new Map(rows.map((r) => [r.batchId, r])).values()];
}

/**
 * Releases every claim at once. Only for the embedded database at startup: its data directory is locked to one
 * process, so any claim found then belongs to this process's previous life (killed or crashed), and its work can
 * resume now instead of after the claim timeout. Items already tried `maxAttempts` times keep their claim, so the
 * workers fail them once it is stale: a file or question that took the whole process down each time must not be
 * retried on every restart.
 */
export async function releaseClaimsOfPreviousRun(
  db: DbOrTx,
  maxAttempts: { questions: number; documents: number },
): Promise<number> {
  const rows = await db
    .update(aq)
    .set({ status: 'pending', claimedAt: null })
    .where(and(eq(aq.status, 'processing'), lt(aq.attempts, maxAttempts.questions)))
    .returning({ id: aq.id });
  await db
    .update(documents)
    .set({ claimedAt: null })
    .where(and(eq(documents.status, 'processing'), lt(documents.attempts, maxAttempts.documents)));
  return rows.length;
}

/**
 * Gives back claimed questions this worker will not answer (it is stopping before their turn): pending again, the
 * try not counted, and only while the claim is still the one made (a claim taken over meanwhile is not touched).
 */
export async function releaseUnansweredClaims(db: DbOrTx, questions: readonly ClaimedQuestion[]): Promise<void> {
  for (const q of questions) {
    if (!q.claimedAt) continue;
    await db
      .update(aq)
      .set({ status: 'pending', claimedAt: null, attempts: sql`greatest(${aq.attempts} - 1, 0)` })
      .where(and(eq(aq.id, q.id), eq(aq.status, 'processing'), eq(aq.claimedAt, q.claimedAt)));
  }
}
