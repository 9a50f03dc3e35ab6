import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BulkDeleteResult,
  ChunksQuery,
  DocumentChunkView,
  DocumentIdsBody,
  DocumentView,
  ListDocumentsQuery,
  RegisterDocumentBody,
} from '../../../common/schemas/documents';
import { IdParams, SuccessResponse } from '../../../common/schemas/errors';
import { ID_LIST_BODY_LIMIT } from '../../../common/constants';
import { toCsv } from '../../../common/import/csv-export';
import { requireTenant } from '../../http/context';
import { notFound } from '../../http/errors';
import { audit } from '../audit/service';
import * as docs from './service';
import { presentDocument } from './presenters';

const tag = { tags: ['documents'] };

async function documentsCtx(req: FastifyRequest) {
  const ctx = await requireTenant(req);
  const { storage, wakeWorker, config } = req.server.deps;
  return { ...ctx, storage, wake: wakeWorker, quotaBytes: config.uploads.quotaBytes };
}

/** RFC 6266: a plain ASCII fallback plus the exact UTF-8 name. */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export async function documentRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/documents',
    {
      config: { policy: 'documents:read' },
      schema: { ...tag, querystring: ListDocumentsQuery, response: { 200: z.array(DocumentView) } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      return (await docs.listDocuments(ctx, req.query)).map(presentDocument);
    },
  );

  app.put(
    '/api/documents',
    {
      config: { policy: 'documents:upload' },
      schema: { ...tag, body: RegisterDocumentBody, response: { 201: DocumentView } },
    },
    async (req, reply) => {
      const ctx = await documentsCtx(req);
      return reply.code(201).send(presentDocument(await docs.registerDocument(ctx, req.body)));
    },
  );

  app.get(
    '/api/documents/:id',
    { config: { policy: 'documents:read' }, schema: { ...tag, params: IdParams, response: { 200: DocumentView } } },
    async (req) => {
      const ctx = await requireTenant(req);
      return presentDocument(await docs.getDocument(ctx, req.params.id));
    },
  );

  app.get(
    '/api/documents/:id/chunks',
    {
      config: { policy: 'documents:read' },
      schema: { ...tag, params: IdParams, querystring: ChunksQuery, response: { 200: z.array(DocumentChunkView) } },
    },
    async (req, reply) => {
      const ctx = await requireTenant(req);
      const { rows, total } = await docs.listChunks(ctx, req.params.id, req.query);
      reply.header('X-Total-Count', String(total));
      return rows;
    },
  );

  app.get(
    '/api/documents/:id/download',
    { config: { policy: 'documents:read' }, schema: { ...tag, params: IdParams } },
    async (req, reply) => {
      const ctx = await documentsCtx(req);
      const doc = await docs.getDocument(ctx, req.params.id);
      const body = await ctx.storage.stream(doc.storageKey).catch((err: unknown) => {
        req.log.error({ err, documentId: doc.id }, 'document file missing from storage');
        throw notFound("This document's file");
      });
      return reply
        .header('Content-Type', doc.mimeType)
        .header('Content-Length', String(doc.size))
        .header('Content-Disposition', attachmentHeader(doc.originalName))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .send(body);
    },
  );

  app.delete(
    '/api/documents/:id',
    {
      config: { policy: 'documents:delete' },
      schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      const ctx = await documentsCtx(req);
      await docs.getDocument(ctx, req.params.id);
      await docs.deleteDocuments(ctx, [req.params.id]);
      return { success: true as const };
    },
  );

  app.post(
    '/api/documents/bulk-delete',
    {
      config: { policy: 'documents:delete' },
      bodyLimit: ID_LIST_BODY_LIMIT,
      schema: { ...tag, body: DocumentIdsBody, response: { 200: BulkDeleteResult } },
    },
    async (req) => {
      const ctx = await documentsCtx(req);
      return { deleted: await docs.deleteDocuments(ctx, req.body.documentIds) };
    },
  );

  app.post(
    '/api/documents/export',
    { config: { policy: 'documents:read' }, bodyLimit: ID_LIST_BODY_LIMIT, schema: { ...tag, body: DocumentIdsBody } },
    async (req, reply) => {
      const ctx = await documentsCtx(req);
      const rows = await docs.documentsForExport(ctx, req.body.documentIds);
      const csv = toCsv([
        ['name', 'type', 'mimeType', 'size', 'uploadedAt', 'uploadedBy', 'tags', 'status', 'chunks', 'pages', 'error'],
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
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="documents-${new Date().toISOString().slice(0, 10)}.csv"`)
        .header('Cache-Control', 'no-store')
        .send(csv);
    },
  );
}
