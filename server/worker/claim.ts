import { and, asc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { documents } from '../db/schema';
import type { DbOrTx } from '../db/client';
import { CLAIM_NOW } from './claim-time';

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
 * Claims up to `limit` documents waiting for extraction (ARCHITECTURE §7): unclaimed ones, and ones whose claim is older
 * than `staleMs` (their worker died) unless they were tried `maxAttempts` times already (failExhaustedDocuments
 * fails those). SKIP LOCKED lets several workers claim at once without taking the same row.
 */
export async function claimDocuments(
  db: DbOrTx,
  limit: number,
  staleMs: number,
  maxAttempts = 2_147_483_647,
): Promise<ClaimedDocument[]> {
  const staleBefore = new Date(Date.now() - staleMs);
  const waiting = db
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(
        eq(documents.status, 'processing'),
        or(isNull(documents.claimedAt), and(lt(documents.claimedAt, staleBefore), lt(documents.attempts, maxAttempts))),
      ),
    )
    .orderBy(asc(documents.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(documents)
    .set({ claimedAt: CLAIM_NOW, attempts: sql`${documents.attempts} + 1` })
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

/**
 * Moves a live claim forward (the worker's heartbeat while a long file is extracted), so the claim timeout can be
 * short without another worker taking over a document that is still being worked on. Returns the new claim time,
 * or null when the claim is no longer this one (taken over, or the document was deleted).
 */
export async function renewDocumentClaim(db: DbOrTx, id: string, claimedAt: Date): Promise<Date | null> {
  const [row] = await db
    .update(documents)
    .set({ claimedAt: CLAIM_NOW })
    .where(
      and(
        eq(documents.id, id),
        eq(documents.status, 'processing'),
        sql`date_trunc('milliseconds', ${documents.claimedAt}) = ${claimedAt.toISOString()}::timestamptz`,
      ),
    )
    .returning({ claimedAt: documents.claimedAt });
  return row?.claimedAt ?? null;
}

/**
 * Fails the documents whose claims went stale after their last allowed try: a file that kills its worker every
 * time (memory, a crash in a parser) would otherwise be taken up again forever, taking one worker down each time.
 * Returns their ids.
 */
export async function failExhaustedDocuments(
  db: DbOrTx,
  staleMs: number,
  maxAttempts: number,
  reason: string,
): Promise<string[]> {
  const rows = await db
    .update(documents)
    .set({ status: 'failed', error: reason, claimedAt: null, processedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(documents.status, 'processing'),
        lt(documents.claimedAt, new Date(Date.now() - staleMs)),
        gte(documents.attempts, maxAttempts),
      ),
    )
    .returning({ id: documents.id });
  return rows.map((r) => r.id);
}
