import { inArray } from 'drizzle-orm';
import { assessmentBatches, documents } from '../db/schema';
import type { DbOrTx } from '../db/client';
import { StorageKeyError, type ObjectStorage } from '../storage/types';

/** An upload link lives 15 minutes; a file this much older with no document row was abandoned. */
export const ORPHAN_AGE_MS = 24 * 3600_000;

/**
 * Deletes uploaded files that were never registered as documents or assessments (the browser stopped between PUT and
 * registration, or registration was refused after a crash). Returns the deleted keys.
 */
export async function sweepOrphanUploads(
  db: DbOrTx,
  storage: ObjectStorage,
  opts: { olderThanMs?: number; prefix?: string } = {},
): Promise<string[]> {
  const cutoff = Date.now() - (opts.olderThanMs ?? ORPHAN_AGE_MS);
  await storage.sweepPartials?.(opts.prefix ?? 'org/', new Date(cutoff));
  const old = (await storage.list(opts.prefix ?? 'org/')).filter((o) => o.modifiedAt.getTime() <= cutoff);
  const deleted: string[] = [];
  for (let i = 0; i < old.length; i += 1000) {
    const batch = old.slice(i, i + 1000).map((o) => o.key);
    // A questionnaire's original file is kept for its export, under an upload key like a document's.
    const known = new Set(
      [
        ...(await db.select({ key: documents.storageKey }).from(documents).where(inArray(documents.storageKey, batch))),
        ...(await db
          .select({ key: assessmentBatches.storageKey })
          .from(assessmentBatches)
          .where(inArray(assessmentBatches.storageKey, batch))),
      ].map((r) => r.key),
    );
    for (const key of batch) {
      if (known.has(key)) continue;
      try {
        await storage.delete(key);
        deleted.push(key);
      } catch (err) {
        // A file someone put there by hand is not an upload: leave it, and sweep the rest.
        if (!(err instanceof StorageKeyError)) throw err;
      }
    }
  }
  return deleted;
}
