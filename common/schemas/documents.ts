import { z } from 'zod';
import { DOCUMENT_NAME_MAX_LENGTH, LIBRARY_PAGE_MAX, UPLOAD_MAX_BYTES } from '../constants';
import { Tags } from './knowledge';
import { hasInvisibleCharacters, INVISIBLE_NAME_MESSAGE } from '../file-names';

export const DOCUMENT_STATUSES = ['processing', 'ready', 'failed'] as const;
export const DocumentStatus = z.enum(DOCUMENT_STATUSES);
export type DocumentStatus = z.infer<typeof DocumentStatus>;

export const DOCUMENT_KINDS = ['pdf', 'docx', 'xlsx', 'csv', 'text', 'markdown', 'html', 'image'] as const;
export const DocumentKind = z.enum(DOCUMENT_KINDS);
export type DocumentKind = z.infer<typeof DocumentKind>;

/** PRODUCT §6 Document, plus its processing state. */
export const DocumentView = z.object({
  id: z.string(),
  workspaceId: z.string(),
  originalName: z.string(),
  mimeType: z.string(),
  kind: DocumentKind,
  size: z.number().int(),
  uploadedAt: z.string(),
  uploadedBy: z.object({ id: z.string(), username: z.string() }).nullable(),
  tags: z.array(z.string()),
  status: DocumentStatus,
  /** Why processing failed, as a sentence (null unless failed). */
  error: z.string().nullable(),
  extractedChunks: z.number().int(),
  pageCount: z.number().int().nullable(),
  processedAt: z.string().nullable(),
});
export type DocumentView = z.infer<typeof DocumentView>;

/** PRODUCT §6 Upload-URL response. */
export const UploadUrlView = z.object({ uploadURL: z.string(), expiresAt: z.string() });
export type UploadUrlView = z.infer<typeof UploadUrlView>;

/** Optional: with the size, an S3 upload URL also signs the length (the local driver caps every body anyway). */
export const UploadUrlBody = z
  .object({
    size: z.number().int().min(0).max(UPLOAD_MAX_BYTES, 'Files can be at most 50 MB').optional(),
  })
  .nullish();

export const DUPLICATE_CHOICES = ['ask', 'replace', 'keep'] as const;
export type DuplicateChoice = (typeof DUPLICATE_CHOICES)[number];

/** PRODUCT §6 registration payload. */
export const RegisterDocumentBody = z.object({
  documentURL: z.string().min(1, 'documentURL is required').max(4096),
  originalName: z
    .string()
    .trim()
    .min(1, 'originalName is required')
    .max(DOCUMENT_NAME_MAX_LENGTH, `File names can be at most ${DOCUMENT_NAME_MAX_LENGTH} characters`)
    .refine((name) => !hasInvisibleCharacters(name), INVISIBLE_NAME_MESSAGE),
  mimeType: z.string().max(255).default('application/octet-stream'),
  size: z.number().int().min(0).max(UPLOAD_MAX_BYTES, 'Files can be at most 50 MB').default(0),
  tags: Tags.default([]),
  /**
   * When the workspace already has a file with the same bytes (SHA-256): `ask` refuses with 409 `duplicate_document`
   * and keeps the upload so it can be registered again with a choice (the upload widget asks); `replace` gives the
   * existing document this upload's name and tags (its text, id and citations stay); `keep` adds a second copy, as
   * registration always did, so API clients that send nothing keep working.
   */
  ifDuplicate: z.enum(DUPLICATE_CHOICES, { message: 'ifDuplicate must be ask, replace or keep' }).default('keep'),
});
export type RegisterDocumentBody = z.input<typeof RegisterDocumentBody>;

/** Details of a 409 `duplicate_document`: the document that already has these bytes. */
export const DuplicateDocumentDetails = z.object({ documentId: z.string(), originalName: z.string() });
export type DuplicateDocumentDetails = z.infer<typeof DuplicateDocumentDetails>;

export const DOCUMENT_FILTERS = ['all', 'pdf', 'image', 'text'] as const;
export const ListDocumentsQuery = z.object({
  q: z.string().trim().max(200, 'Search text must be at most 200 characters').optional(),
  type: z.enum(DOCUMENT_FILTERS, { message: 'type must be all, pdf, image or text' }).default('all'),
});
export type ListDocumentsQuery = z.input<typeof ListDocumentsQuery>;

const documentIds = z
  .array(z.uuid({ message: 'documentIds must be document ids' }), { message: 'documentIds must be a list' })
  .min(1, 'Select at least one document')
  .max(LIBRARY_PAGE_MAX);

export const DocumentIdsBody = z.object({ documentIds: documentIds });
export type DocumentIdsBody = z.infer<typeof DocumentIdsBody>;

export const BulkDeleteResult = z.object({ deleted: z.number().int() });

export const DocumentChunkView = z.object({
  ordinal: z.number().int(),
  page: z.number().int().nullable(),
  section: z.string().nullable(),
  text: z.string(),
});
export type DocumentChunkView = z.infer<typeof DocumentChunkView>;

export const ChunksQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(200),
  offset: z.coerce.number().int().min(0).default(0),
});
