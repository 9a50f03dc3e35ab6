import { and, asc, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import { assessmentQuestions as aq, documents } from '../db/schema';
import type { DbOrTx } from '../db/client';

export type ClaimedQuestion = {
  id: string;
  batchId: string;
  organizationId: string;
  workspaceId: string;
  question: string;
  attempts: number;
  claimedAt: Date | null;
};

/**
 * Claims up to `limit` assessment questions waiting for an answer (DESIGN §7): pending ones, oldest batch first and
 * in question order, and ones whose claim is older than `staleMs` (their worker died). SKIP LOCKED lets several
 * workers claim at once without ever taking the same row.
 */
export async function claimQuestions(
  db: DbOrTx,
  limit: number,
  staleMs: number,
  /** A stale claim on a question tried this often is not taken up again (failExhaustedClaims fails it). */
  maxAttempts = 2_147_483_647,
): Promise<ClaimedQuestion[]> {
  const staleBefore = new Date(Date.now() - staleMs);
  const waiting = db
    .select({ id: aq.id })
    .from(aq)
    .where(
      or(
        eq(aq.status, 'pending'),
        and(eq(aq.status, 'processing'), lt(aq.claimedAt, staleBefore), lt(aq.attempts, maxAttempts)),
      ),
    )
    .orderBy(asc(aq.createdAt), asc(aq.orderIndex))
    .limit(limit)
    .for('update', { skipLocked: true });
  return (
    db
      .update(aq)
      // Milliseconds only: the claim comes back as a JS Date, and the answer's write matches on it exactly.
      .set({
        status: 'processing',
        claimedAt: sql`date_trunc('milliseconds', clock_timestamp())`,
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
      })
  );
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
): Promise<string[]> {
  const rows = await db
    .update(aq)
    .set({ status: 'failed', errorMessage: reason, claimedAt: null, updatedAt: new Date() })
    .where(
      and(eq(aq.status, 'processing'), lt(aq.claimedAt, new Date(Date.now() - staleMs)), gte(aq.attempts, maxAttempts)),
    )
    .returning({ batchId: aq.batchId });
  return [...new Set(rows.map((r) => r.batchId))];
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
