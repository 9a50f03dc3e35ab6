import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { documentChunks, documents } from '../db/schema';
import { inTransaction, type Db } from '../db/client';
import type { ObjectStorage } from '../storage/types';
import { ExtractionError, type Chunk } from '../ingest/types';
import { renewDocumentClaim, type ClaimedDocument } from './claim';

/** After this many tries that failed for reasons other than the file itself, the document is marked failed. */
export const MAX_ATTEMPTS = 3;
export const GAVE_UP =
  'Processing failed repeatedly. Delete the document and upload it again; if it keeps failing, contact support.';
const INSERT_CHUNK = 500;

export type Extract = (bytes: Uint8Array, name: string) => Promise<{ pageCount: number | null; chunks: Chunk[] }>;

export type ProcessDeps = {
  db: Db;
  storage: ObjectStorage;
  log: FastifyBaseLogger;
  extract: Extract;
  /** How often the claim is renewed while the file is extracted (0 or absent: never). */
  heartbeatMs?: number;
};

/**
 * Extracts one claimed document and stores its chunks, all in one transaction that first checks the claim is still
 * ours: if a slow run lost its claim to another worker, its result is dropped instead of stored twice. While the
 * file is extracted the claim is renewed every `heartbeatMs`, so only a dead worker's claim ever goes stale.
 */
export async function processDocument(deps: ProcessDeps, doc: ClaimedDocument): Promise<ProcessOutcome> {
  const claim = keepClaim(deps, doc);
  try {
    return await extractAndStore(deps, doc, claim);
  } finally {
    await claim.release();
  }
}

type ProcessOutcome = 'ready' | 'failed' | 'retry' | 'lost';
type HeldClaim = { release: () => Promise<Date | null> };

/** Renews the claim on a timer until released; release() waits for a renewal in flight and gives the claim held. */
function keepClaim(deps: ProcessDeps, doc: ClaimedDocument): HeldClaim {
  let at = doc.claimedAt;
  let renewing: Promise<void> = Promise.resolve();
  const everyMs = deps.heartbeatMs ?? 0;
  const timer =
    everyMs > 0 && at
      ? setInterval(() => {
          renewing = renewing.then(async () => {
            if (!at) return;
            try {
              at = await renewDocumentClaim(deps.db, doc.id, at);
              if (!at) deps.log.info({ documentId: doc.id }, 'document claim taken over while extracting');
            } catch (err) {
              // A passing database fault: the next beat tries again, well within the claim timeout.
              deps.log.warn({ err, documentId: doc.id }, 'renewing a document claim failed');
            }
          });
        }, everyMs)
      : null;
  timer?.unref();
  return {
    release: async () => {
      if (timer) clearInterval(timer);
      await renewing;
      return at;
    },
  };
}

async function extractAndStore(deps: ProcessDeps, doc: ClaimedDocument, claim: HeldClaim): Promise<ProcessOutcome> {
  const { db, storage, log } = deps;
  // The heartbeat stops before the final transaction (outside it: on the embedded database a query waiting behind
  // an open transaction would never run), so the claim it compares with cannot move under it.
  const stillOurs = async (tx: Parameters<Parameters<Db['transaction']>[0]>[0], held: Date | null) => {
    if (!held) return false;
    const [row] = await tx
      .select({ claimedAt: documents.claimedAt })
      .from(documents)
      .where(and(eq(documents.id, doc.id), eq(documents.status, 'processing')))
      .for('update');
    return row?.claimedAt?.getTime() === held.getTime();
  };

  let result: { pageCount: number | null; chunks: Chunk[] };
  try {
    const bytes = await storage.read(doc.storageKey);
    result = await deps.extract(bytes, doc.originalName);
  } catch (err) {
    const final = err instanceof ExtractionError || doc.attempts >= MAX_ATTEMPTS;
    const reason = err instanceof ExtractionError ? err.message : GAVE_UP;
    if (!(err instanceof ExtractionError))
      log.warn({ err, documentId: doc.id, attempt: doc.attempts }, 'extraction failed');
    const held = await claim.release();
    return inTransaction(db, async (tx) => {
      if (!(await stillOurs(tx, held))) return 'lost' as const;
      await tx
        .update(documents)
        .set(
          final
            ? { status: 'failed', error: reason, claimedAt: null, processedAt: new Date(), updatedAt: new Date() }
            : { claimedAt: null, updatedAt: new Date() },
        )
        .where(eq(documents.id, doc.id));
      return final ? ('failed' as const) : ('retry' as const);
    });
  }

  const held = await claim.release();
  return inTransaction(db, async (tx) => {
    if (!(await stillOurs(tx, held))) return 'lost' as const;
    await tx.delete(documentChunks).where(eq(documentChunks.documentId, doc.id));
    for (let i = 0; i < result.chunks.length; i += INSERT_CHUNK) {
      await tx.insert(documentChunks).values(
        result.chunks.slice(i, i + INSERT_CHUNK).map((c) => ({
          documentId: doc.id,
          organizationId: doc.organizationId,
          workspaceId: doc.workspaceId,
          ordinal: c.ordinal,
          page: c.page,
          section: c.section,
          text: c.text,
        })),
      );
    }
    await tx
      .update(documents)
      .set({
        status: 'ready',
        error: null,
        chunkCount: result.chunks.length,
        pageCount: result.pageCount,
        claimedAt: null,
        processedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(documents.id, doc.id));
    return 'ready' as const;
  });
}
