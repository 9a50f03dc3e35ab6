import { and, eq, inArray, sql } from 'drizzle-orm';
import { assessmentBatches as ab, assessmentQuestions as aq } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';

export const NONE_ANSWERED =
  'No question of this assessment could be answered. Open it to see each error, then use Retry failed.';

/**
 * Marks a batch completed once none of its questions waits any more (`failed` only when none could be answered),
 * or back to processing when a question was sent back to the worker. Called inside the transaction that changed a
 * question, after that change: the batch row is locked first, so of two workers finishing the last two questions
 * at once the second one, waiting for the lock, sees the first one's question done and settles the batch.
 */
export async function settleBatch(
  tx: DbOrTx,
  tenant: Pick<TenantCtx, 'organizationId' | 'workspaceId'>,
  batchId: string,
): Promise<void> {
  const [batch] = await tx
    .select({ status: ab.status })
    .from(ab)
    .where(and(inTenant(ab, tenant), eq(ab.id, batchId)))
    .for('update');
  if (!batch) return;
  const [waiting] = await tx
    .select({ id: aq.id })
    .from(aq)
    .where(and(inTenant(aq, tenant), eq(aq.batchId, batchId), inArray(aq.status, ['pending', 'processing'])))
    .limit(1);
  if (waiting) {
    if (batch.status !== 'processing') {
      // A completed batch keeps the time it completed while one answer is redone (Regenerate): it completed then,
      // and moving it would move the batch between analytics periods. A failed one gets a new time when it completes.
      await tx
        .update(ab)
        .set({
          status: 'processing',
          ...(batch.status === 'completed' ? {} : { completedAt: null }),
          error: null,
          updatedAt: new Date(),
        })
        .where(and(inTenant(ab, tenant), eq(ab.id, batchId)));
    }
    return;
  }
  const [answered] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(aq)
    .where(and(inTenant(aq, tenant), eq(aq.batchId, batchId), eq(aq.status, 'completed')));
  const ok = (answered?.n ?? 0) > 0;
  // Also after the fact: a failed batch whose question a reviewer then answered is completed.
  if (batch.status === (ok ? 'completed' : 'failed')) return;
  await tx
    .update(ab)
    .set({
      status: ok ? 'completed' : 'failed',
      error: ok ? null : NONE_ANSWERED,
      // Set while processing only when it had completed before (see above): that time stands.
      completedAt:
        ok && batch.status === 'processing'
          ? sql`coalesce(${ab.completedAt}, clock_timestamp())`
          : sql`clock_timestamp()`,
      updatedAt: new Date(),
    })
    .where(and(inTenant(ab, tenant), eq(ab.id, batchId)));
}
