import { and, asc, count, desc, eq, getTableColumns, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { documentChunks, documents, users } from '../../db/schema';
import { inTransaction } from '../../db/client';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';
import type { AppDeps } from '../../deps';
import { attachment, datedName, plainAttachment, type Download } from '../../download';
import { toCsv } from '../../../common/import/csv-export';
import { AppError, badRequest, conflict, forbidden, notFound, selectionNotFound } from '../../errors';
import { can } from '../../../common/policies';
import { audit } from '../audit/service';
import { UPLOAD_MAX_BYTES } from '../../../common/constants';
import type {
  DuplicateDocumentDetails,
  ListDocumentsQuery,
  RegisterDocumentBody,
} from '../../../common/schemas/documents';
import type { z } from 'zod';
import { uploadKeyFromUrl } from '../../storage/keys';
import { detectDocumentType } from '../../ingest/detect';
import { ExtractionError } from '../../ingest/types';
import type { DocumentRecord } from './presenters';
import { claimUploadLink, findUploadLink, isIssuedUrl, quotaExceeded, storageUsed } from '../objects/uploads';

const TEXT_KINDS = ['docx', 'xlsx', 'csv', 'text', 'markdown', 'html'];
// Enough of the file for magic numbers and zip directories; text checks look at this much too.
const SNIFF_BYTES = 1024 * 1024;

function selectDocuments(ctx: TenantCtx, where?: SQL) {
  return ctx.db
    .select({ ...getTableColumns(documents), uploaderName: users.username })
    .from(documents)
    .leftJoin(users, eq(users.id, documents.uploadedBy))
    .where(where ? and(inTenant(documents, ctx), where) : inTenant(documents, ctx));
}

/** Drops an incomplete UTF-8 sequence at the end of a prefix, so a text check does not fail on the cut. */
export function trimIncompleteUtf8(bytes: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const b = bytes[bytes.length - back] ?? 0;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}

const NOT_ISSUED =
  'documentURL must be the upload link Verity gave for this file, exactly as given. Upload the file again.';
const NOT_UPLOADED = 'The file was never uploaded, or its upload did not finish. Upload it again.';
const ALREADY = 'This upload is already registered as a document.';

/**
 * A refusal of the file's content (empty, damaged, of an unsupported type): sending the same bytes again fails the
 * same way, so the upload widget offers no retry for this code.
 */
const fileRefused = (message: string) => new AppError(400, 'file_refused', message);

/**
 * Registers an uploaded object as a document and queues its extraction. The caller must present the signed upload
 * URL itself (its hash is on the link's row), the link must be its organization's, and it is claimed (`registering`)
 * before anything else happens: a second registration, concurrent or later, gets 409 and never touches the file.
 * The object must exist, match the stated size, fit the storage quota and be of a supported type judged by its
 * content; a refused upload is deleted so no orphan stays behind. Bytes the workspace already has (same SHA-256) are
 * not silently stored twice: `ifDuplicate` says whether to ask (409, the upload kept for a second try), replace the
 * existing document's name and tags, or keep both. Answers whether an existing document was replaced.
 */
export async function registerDocument(deps: AppDeps, ctx: TenantCtx, input: z.output<typeof RegisterDocumentBody>) {
  const parsed = uploadKeyFromUrl(input.documentURL);
  if (!parsed) throw badRequest('documentURL is not an upload link made by Verity. Upload the file again.');
  if (parsed.organizationId !== ctx.organizationId) throw notFound('Uploaded file');
  const { key } = parsed;
  const link = await findUploadLink(ctx.db, key);
  if (!link || link.organizationId !== ctx.organizationId || !isIssuedUrl(link, input.documentURL)) {
    throw badRequest(NOT_ISSUED);
  }
  if (link.state === 'registered' || link.state === 'registering') throw conflict(ALREADY);
  if (link.state !== 'issued' && link.state !== 'uploaded') throw badRequest(NOT_UPLOADED);
  const claimed = await claimUploadLink(ctx.db, key, ['issued', 'uploaded'], 'registering');
  if (!claimed) throw conflict(ALREADY);

  let sealed: string | null = null;
  let settled = false;
  const refuse = async (err: AppError): Promise<never> => {
    settled = true;
    await deps.storage.delete(key).catch(() => {});
    if (sealed && sealed !== key) await deps.storage.delete(sealed).catch(() => {});
    await claimUploadLink(ctx.db, key, ['registering'], 'refused').catch(() => null);
    throw err;
  };
  const tooLarge = () => new AppError(413, 'payload_too_large', 'Files can be at most 50 MB.');
  const wrongSize = (size: number) =>
    badRequest(`The uploaded file has ${size} bytes, not the ${input.size} stated. Upload it again.`);
  try {
    const head = await deps.storage.head(key);
    if (!head) {
      // Nothing was stored, so there is nothing to clean: the link may still be used.
      settled = true;
      await claimUploadLink(ctx.db, key, ['registering'], link.state as 'issued' | 'uploaded');
      throw badRequest(NOT_UPLOADED);
    }
    if (head.size > UPLOAD_MAX_BYTES) await refuse(tooLarge());
    if (head.size === 0) await refuse(fileRefused('The file is empty.'));
    if (input.size > 0 && input.size !== head.size) await refuse(wrongSize(head.size));
    const used = await storageUsed(ctx.db, ctx.organizationId, key);
    if (used + head.size > deps.config.uploads.quotaBytes) await refuse(quotaExceeded(deps.config.uploads.quotaBytes));

    sealed = await deps.storage.seal(key, ctx.organizationId);
    // The local PUT hashed the bytes as they arrived; an S3 object is hashed here, as the sealed copy.
    const stored =
      sealed === key && link.sha256 && link.size === head.size
        ? { size: link.size, sha256: link.sha256 }
        : await deps.storage.digest(sealed);
    if (stored.size > UPLOAD_MAX_BYTES) await refuse(tooLarge());
    if (input.size > 0 && input.size !== stored.size) await refuse(wrongSize(stored.size));

    let detected: Awaited<ReturnType<typeof detectDocumentType>>;
    try {
      const start = await deps.storage.readStart(sealed, SNIFF_BYTES);
      detected = await detectDocumentType(
        start.length < stored.size ? trimIncompleteUtf8(start) : start,
        input.originalName,
      );
    } catch (err) {
      if (err instanceof ExtractionError) return await refuse(fileRefused(err.message));
      throw err;
    }

    if (input.ifDuplicate !== 'keep') {
      const twin = await findTwin(ctx, stored.sha256);
      if (twin && input.ifDuplicate === 'ask') {
        // Nothing is refused yet: the user chooses, and registers this same upload again with the choice.
        settled = true;
        if (sealed !== key) await deps.storage.delete(sealed).catch(() => {});
        await claimUploadLink(ctx.db, key, ['registering'], link.state as 'issued' | 'uploaded');
        throw duplicateDocument(twin);
      }
      if (twin) {
        const result = await replaceWithUpload(deps, ctx, twin, key, input);
        settled = true;
        await deps.storage.delete(key).catch(() => {});
        if (sealed !== key) await deps.storage.delete(sealed).catch(() => {});
        return result;
      }
    }

    const storageKey = sealed;
    const id = await inTransaction(ctx.db, async (tx) => {
      if (input.ifDuplicate === 'ask') {
        // Two registrations of the same bytes at once (the widget registers its files in parallel): the second
        // waits here, then finds the first one's document and asks, instead of both storing a copy.
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtext(${`document-bytes:${ctx.workspaceId}:${stored.sha256}`}))`,
        );
        const twin = await findTwin({ ...ctx, db: tx }, stored.sha256);
        if (twin) throw duplicateDocument(twin);
      }
      const [row] = await tx
        .insert(documents)
        .values({
          organizationId: ctx.organizationId,
          workspaceId: ctx.workspaceId,
          storageKey,
          originalName: safeName(input.originalName),
          mimeType: detected.mime,
          kind: detected.kind,
          size: stored.size,
          sha256: stored.sha256,
          tags: input.tags,
          uploadedBy: ctx.userId,
        })
        .onConflictDoNothing({ target: documents.storageKey })
        .returning({ id: documents.id });
      if (!row) throw conflict(ALREADY);
      if (!(await claimUploadLink(tx, key, ['registering'], 'registered'))) throw conflict(ALREADY);
      await audit({ ...ctx, db: tx }, 'document_uploaded', 'document', row.id, {
        name: input.originalName,
        size: stored.size,
        kind: detected.kind,
      });
      return row.id;
    });
    settled = true;
    if (storageKey !== key) await deps.storage.delete(key).catch(() => {});
    deps.wakeWorker?.();
    return { document: await getDocument(ctx, id), replaced: false };
  } catch (err) {
    if (!settled) {
      // An unexpected failure (storage or database down): give the link back so the user can try again.
      if (sealed && sealed !== key) await deps.storage.delete(sealed).catch(() => {});
      await claimUploadLink(ctx.db, key, ['registering'], link.state as 'issued' | 'uploaded').catch(() => null);
    }
    throw err;
  }
}

/** The newest document of the workspace with these bytes, if any. */
async function findTwin(ctx: TenantCtx, sha256: string) {
  const [twin] = await ctx.db
    .select({
      id: documents.id,
      originalName: documents.originalName,
      status: documents.status,
      uploadedBy: documents.uploadedBy,
    })
    .from(documents)
    .where(and(inTenant(documents, ctx), eq(documents.sha256, sha256)))
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(1);
  return twin ?? null;
}

function duplicateDocument(twin: { id: string; originalName: string }): AppError {
  const details: DuplicateDocumentDetails = { documentId: twin.id, originalName: twin.originalName };
  return new AppError(
    409,
    'duplicate_document',
    `This file is already in the library as "${twin.originalName}". Replace it or keep both.`,
    details,
  );
}

/**
 * "Replace": the same bytes are already a document, so that document takes this upload's name and tags and keeps
 * its id, text and the answers citing it; the upload itself is not kept. One that had failed is read again.
 */
async function replaceWithUpload(
  deps: AppDeps,
  ctx: TenantCtx,
  twin: { id: string; originalName: string; status: string; uploadedBy: string | null },
  key: string,
  input: z.output<typeof RegisterDocumentBody>,
) {
  const retry = twin.status === 'failed';
  // Renaming someone else's document is as much as deleting it: a contributor replaces only their own.
  if (twin.uploadedBy !== ctx.userId && !can(ctx.role, 'documents:delete')) {
    throw forbidden(
      `"${twin.originalName}" was uploaded by someone else: only a manager or admin can replace it. Keep both instead.`,
    );
  }
  await inTransaction(ctx.db, async (tx) => {
    const [replaced] = await tx
      .update(documents)
      .set({
        originalName: safeName(input.originalName),
        tags: input.tags,
        updatedAt: new Date(),
        ...(retry ? { status: 'processing', error: null, attempts: 0, claimedAt: null } : {}),
      })
      .where(and(inTenant(documents, ctx), eq(documents.id, twin.id)))
      .returning({ id: documents.id });
    // Deleted meanwhile: nothing was replaced, and the upload is given back (the caller's catch) to register anew.
    if (!replaced) throw notFound('Document');
    if (!(await claimUploadLink(tx, key, ['registering'], 'registered'))) throw conflict(ALREADY);
    await audit({ ...ctx, db: tx }, 'document_replaced', 'document', twin.id, {
      name: input.originalName,
      previousName: twin.originalName,
    });
  });
  if (retry) deps.wakeWorker?.();
  return { document: await getDocument(ctx, twin.id), replaced: true };
}

/** A display name without path parts or control characters: `../../etc/passwd` is kept as `passwd`. */
export function safeName(name: string): string {
  const printable = [...name].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f).join('');
  const base = printable.split(/[\\/]/).pop() ?? '';
  const trimmed = base.trim().replace(/^\.+/, '');
  return trimmed || 'document';
}

export async function listDocuments(ctx: TenantCtx, q: z.output<typeof ListDocumentsQuery>) {
  const conditions: SQL[] = [];
  if (q.type === 'pdf') conditions.push(eq(documents.kind, 'pdf'));
  if (q.type === 'image') conditions.push(eq(documents.kind, 'image'));
  if (q.type === 'text') conditions.push(inArray(documents.kind, TEXT_KINDS));
  if (q.q) {
    const like = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const nameOrTag = or(
      ilike(documents.originalName, like),
      sql`exists (select 1 from unnest(${documents.tags}) as t(tag) where t.tag ilike ${like})`,
    );
    if (nameOrTag) conditions.push(nameOrTag);
  }
  return selectDocuments(ctx, conditions.length ? and(...conditions) : undefined).orderBy(
    desc(documents.createdAt),
    asc(documents.id),
  );
}

export async function getDocument(ctx: TenantCtx, id: string): Promise<DocumentRecord> {
  const [row] = await selectDocuments(ctx, eq(documents.id, id));
  if (!row) throw notFound('Document');
  return row;
}

/** Every id must be the caller's; otherwise nothing happens (404), like a single unknown id. */
async function requireAll(ctx: TenantCtx, ids: string[]) {
  const unique = [...new Set(ids)];
  const rows = await selectDocuments(ctx, inArray(documents.id, unique));
  if (rows.length !== unique.length) {
    throw selectionNotFound(unique.length - rows.length, 'documents', 'the list');
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unique.map((id) => byId.get(id)).filter((r): r is DocumentRecord => r !== undefined);
}

/** Deletes documents with their chunks, then their files (a file that fails to go is swept later). */
export async function deleteDocuments(deps: AppDeps, ctx: TenantCtx, ids: string[]): Promise<number> {
  const rows = await requireAll(ctx, ids);
  const deleted = await inTransaction(ctx.db, async (tx) => {
    const gone = await tx
      .delete(documents)
      .where(
        and(
          inTenant(documents, ctx),
          inArray(
            documents.id,
            rows.map((r) => r.id),
          ),
        ),
      )
      .returning({ id: documents.id, key: documents.storageKey, name: documents.originalName });
    for (const d of gone) await audit({ ...ctx, db: tx }, 'document_deleted', 'document', d.id, { name: d.name });
    return gone;
  });
  await Promise.all(deleted.map((d) => deps.storage.delete(d.key).catch(() => {})));
  return deleted.length;
}

/** One document, after checking it is the caller's (a 404 otherwise, even when the id list would say 0). */
export async function deleteDocument(deps: AppDeps, ctx: TenantCtx, id: string): Promise<void> {
  await getDocument(ctx, id);
  await deleteDocuments(deps, ctx, [id]);
}

/** The stored file of a document, as uploaded. A file missing from storage is logged and answered as not found. */
export async function downloadDocument(deps: AppDeps, ctx: TenantCtx, id: string): Promise<Download> {
  const doc = await getDocument(ctx, id);
  const body = await deps.storage.stream(doc.storageKey).catch((err: unknown) => {
    deps.log.error({ err, documentId: doc.id }, 'document file missing from storage');
    throw notFound("This document's file");
  });
  return {
    contentType: doc.mimeType,
    size: doc.size,
    disposition: attachment(doc.originalName),
    nosniff: true,
    cacheControl: 'private, no-store',
    body,
  };
}

const EXPORT_COLUMNS = [
  'name',
  'type',
  'mimeType',
  'size',
  'uploadedAt',
  'uploadedBy',
  'tags',
  'status',
  'chunks',
  'pages',
  'error',
];

/** The selected documents' details as a dated CSV file (all must be the caller's). */
export async function exportDocuments(ctx: TenantCtx, ids: string[]): Promise<Download> {
  const rows = await requireAll(ctx, ids);
  const csv = toCsv([
    EXPORT_COLUMNS,
    ...rows.map((d) => [
      d.originalName,
      d.kind,
      d.mimeType,
      String(d.size),
      d.createdAt.toISOString(),
      d.uploaderName ?? '',
      d.tags.join('; '),
      d.status,
      String(d.chunkCount),
      d.pageCount === null ? '' : String(d.pageCount),
      d.error ?? '',
    ]),
  ]);
  await audit(ctx, 'documents_exported', 'document', null, { count: rows.length });
  return {
    contentType: 'text/csv; charset=utf-8',
    disposition: plainAttachment(datedName('documents', 'csv')),
    cacheControl: 'no-store',
    body: csv,
  };
}

export async function listChunks(ctx: TenantCtx, id: string, paging: { limit: number; offset: number }) {
  await getDocument(ctx, id);
  const where = and(inTenant(documentChunks, ctx), eq(documentChunks.documentId, id));
  const rows = await ctx.db
    .select({
      ordinal: documentChunks.ordinal,
      page: documentChunks.page,
      section: documentChunks.section,
      text: documentChunks.text,
    })
    .from(documentChunks)
    .where(where)
    .orderBy(asc(documentChunks.ordinal))
    .limit(paging.limit)
    .offset(paging.offset);
  const [total] = await ctx.db.select({ n: count() }).from(documentChunks).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** Documents of the workspace (organization stats' documentCount). */
export async function countDocuments(ctx: TenantCtx) {
  const [row] = await ctx.db.select({ n: count() }).from(documents).where(inTenant(documents, ctx));
  return row?.n ?? 0;
}
