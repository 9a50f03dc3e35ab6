import { and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { assessmentQuestions as aq } from '../db/schema';
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
export async function claimQuestions(db: DbOrTx, limit: number, staleMs: number): Promise<ClaimedQuestion[]> {
  const staleBefore = new Date(Date.now() - staleMs);
  const waiting = db
    .select({ id: aq.id })
    .from(aq)
    .where(or(eq(aq.status, 'pending'), and(eq(aq.status, 'processing'), lt(aq.claimedAt, staleBefore))))
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
