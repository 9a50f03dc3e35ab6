import type { documents } from '../../db/schema';
import type { DocumentKind, DocumentStatus, DocumentView } from '../../../common/schemas/documents';

export type DocumentRecord = typeof documents.$inferSelect & { uploaderName: string | null };

export function presentDocument(d: DocumentRecord): DocumentView {
  return {
    id: d.id,
    workspaceId: d.workspaceId,
    originalName: d.originalName,
    mimeType: d.mimeType,
    kind: d.kind as DocumentKind,
    size: d.size,
    uploadedAt: d.createdAt.toISOString(),
    uploadedBy: d.uploadedBy && d.uploaderName ? { id: d.uploadedBy, username: d.uploaderName } : null,
    tags: d.tags,
    status: d.status as DocumentStatus,
    error: d.error,
    extractedChunks: d.chunkCount,
    pageCount: d.pageCount,
    processedAt: d.processedAt ? d.processedAt.toISOString() : null,
  };
}
