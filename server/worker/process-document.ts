import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { documentChunks, documents } from '../db/schema';
import { inTransaction, type Db } from '../db/client';
import type { ObjectStorage } from '../storage/types';
import { ExtractionError, type Chunk } from '../ingest/types';
import type { ClaimedDocument } from './claim';

/** After this many tries that failed for reasons other than the file itself, the document is marked failed. */
export const MAX_ATTEMPTS = 3;
const INSERT_CHUNK = 500;

export type Extract = (bytes: Uint8Array, name: string) => Promise<{ pageCount: number | null; chunks: Chunk[] }>;

/**
 * Extracts one claimed document and stores its chunks, all in one transaction that first checks the claim is still
 * ours: if a slow run lost its claim to another worker, its result is dropped instead of stored twice.
 */
export async function processDocument(
  deps: { db: Db; storage: ObjectStorage; log: FastifyBaseLogger; extract: Extract },
  doc: ClaimedDocument,
): Promise<'ready' | 'failed' | 'retry' | 'lost'> {
  const { db, storage, log } = deps;
  const stillOurs = (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) =>
    tx
      .select({ claimedAt: documents.claimedAt })
      .from(documents)
      .where(and(eq(documents.id, doc.id), eq(documents.status, 'processing')))
      .for('update')
      .then(([row]) => row !== undefined && row.claimedAt?.getTime() === doc.claimedAt?.getTime());

  let result: { pageCount: number | null; chunks: Chunk[] };
  try {
    const bytes = await storage.read(doc.storageKey);
    result = await deps.extract(bytes, doc.originalName);
  } catch (err) {
    const final = err instanceof ExtractionError || doc.attempts >= MAX_ATTEMPTS;
    const reason =
      err instanceof ExtractionError
        ? err.message
        : 'Processing failed repeatedly. Delete the document and upload it again; if it keeps failing, contact support.';
    if (!(err instanceof ExtractionError))
      log.warn({ err, documentId: doc.id, attempt: doc.attempts }, 'extraction failed');
    return inTransaction(db, async (tx) => {
      if (!(await stillOurs(tx))) return 'lost' as const;
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

  return inTransaction(db, async (tx) => {
    if (!(await stillOurs(tx))) return 'lost' as const;
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
