import { and, eq, inArray, lt, ne } from 'drizzle-orm';
import { UPLOAD_URL_TTL_SECONDS } from '../../common/constants';
import { assessmentBatches, documents, uploadLinks } from '../db/schema';
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
    const known = await keysInUse(db, batch);
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

/**
 * How long after its link expired an upload may still be registered: the link is checked when the PUT starts, so
 * a slow upload can finish after it; registration follows at once.
 */
export const LINK_GRACE_MS = UPLOAD_URL_TTL_SECONDS * 1000;
/** A registered link's row only answers "already registered"; after a day nobody registers it again. */
const REGISTERED_LINK_KEEP_MS = 24 * 3600_000;

/**
 * Deletes the files of upload links that expired without a document (a grace period after their expiry, so within
 * half an hour of the link being made, not a day later) together with their rows, and forgets registered links a
 * day old. Driven by the links table, so it costs one indexed query however large the bucket is. Returns the keys
 * whose links were swept.
 */
export async function sweepExpiredUploads(
  db: DbOrTx,
  storage: ObjectStorage,
  opts: { graceMs?: number; limit?: number } = {},
): Promise<string[]> {
  const cutoff = new Date(Date.now() - (opts.graceMs ?? LINK_GRACE_MS));
  const stale = await db
    .select({ key: uploadLinks.storageKey, state: uploadLinks.state })
    .from(uploadLinks)
    .where(and(ne(uploadLinks.state, 'registered'), lt(uploadLinks.expiresAt, cutoff)))
    .limit(opts.limit ?? 1000);
  const swept: string[] = [];
  if (stale.length > 0) {
    const keys = stale.map((s) => s.key);
    // Belt and braces: a key a row points at is never deleted, whatever its link says.
    const kept = await keysInUse(db, keys);
    for (const { key, state } of stale) {
      if (!kept.has(key)) {
        try {
          await storage.delete(key);
        } catch (err) {
          if (!(err instanceof StorageKeyError)) throw err;
        }
      }
      // Only if nobody moved the link meanwhile (a registration finishing in its grace period).
      await db.delete(uploadLinks).where(and(eq(uploadLinks.storageKey, key), eq(uploadLinks.state, state)));
      swept.push(key);
    }
  }
  await db
    .delete(uploadLinks)
    .where(
      and(
        eq(uploadLinks.state, 'registered'),
        lt(uploadLinks.expiresAt, new Date(Date.now() - REGISTERED_LINK_KEEP_MS)),
      ),
    );
  return swept;
}

/**
 * Which of these storage keys a row points at: a document's file, or a questionnaire's original (kept for its
 * export, under an upload key like a document's).
 */
async function keysInUse(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  const rows = [
    ...(await db.select({ key: documents.storageKey }).from(documents).where(inArray(documents.storageKey, keys))),
    ...(await db
      .select({ key: assessmentBatches.storageKey })
      .from(assessmentBatches)
      .where(inArray(assessmentBatches.storageKey, keys))),
  ];
  return new Set(rows.flatMap((r) => (r.key === null ? [] : [r.key])));
}
