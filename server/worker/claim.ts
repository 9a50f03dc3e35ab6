import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { documents } from '../db/schema';
import type { DbOrTx } from '../db/client';

export type ClaimedDocument = {
  id: string;
  organizationId: string;
  workspaceId: string;
  storageKey: string;
  originalName: string;
  attempts: number;
  claimedAt: Date | null;
};

/**
 * Claims up to `limit` documents waiting for extraction (DESIGN §7): unclaimed ones, and ones whose claim is older
 * than `staleMs` (their worker died). SKIP LOCKED lets several workers claim at once without taking the same row.
 */
export async function claimDocuments(db: DbOrTx, limit: number, staleMs: number): Promise<ClaimedDocument[]> {
  const staleBefore = new Date(Date.now() - staleMs);
  const waiting = db
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(eq(documents.status, 'processing'), or(isNull(documents.claimedAt), lt(documents.claimedAt, staleBefore))),
    )
    .orderBy(asc(documents.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(documents)
    .set({ claimedAt: sql`clock_timestamp()`, attempts: sql`${documents.attempts} + 1` })
    .where(inArray(documents.id, waiting))
    .returning({
      id: documents.id,
      organizationId: documents.organizationId,
      workspaceId: documents.workspaceId,
      storageKey: documents.storageKey,
      originalName: documents.originalName,
      attempts: documents.attempts,
      claimedAt: documents.claimedAt,
    });
}
