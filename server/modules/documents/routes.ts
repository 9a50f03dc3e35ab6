import type { FastifyInstance } from 'fastify';
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
import { sendDownload } from '../../http/send-download';
import * as docs from './service';
import { presentDocument } from './presenters';

const tag = { tags: ['documents'] };

export async function documentRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { deps } = root;

  app.get(
    '/api/documents',
    {
      config: { access: 'documents:read', workspace: true },
      schema: { ...tag, querystring: ListDocumentsQuery, response: { 200: z.array(DocumentView) } },
    },
    async (req) => (await docs.listDocuments(req.tenant, req.query)).map(presentDocument),
  );

  app.put(
    '/api/documents',
    {
      config: { access: 'documents:upload', workspace: true },
      schema: { ...tag, body: RegisterDocumentBody, response: { 200: DocumentView, 201: DocumentView } },
    },
    async (req, reply) => {
      const { document, replaced } = await docs.registerDocument(deps, req.tenant, req.body);
      // A replaced document already existed: 200, not 201.
      return reply.code(replaced ? 200 : 201).send(presentDocument(document));
    },
  );

  app.get(
    '/api/documents/:id',
    {
      config: { access: 'documents:read', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: DocumentView } },
    },
    async (req) => presentDocument(await docs.getDocument(req.tenant, req.params.id)),
  );

  app.get(
    '/api/documents/:id/chunks',
    {
      config: { access: 'documents:read', workspace: true },
      schema: { ...tag, params: IdParams, querystring: ChunksQuery, response: { 200: z.array(DocumentChunkView) } },
    },
    async (req, reply) => {
      const { rows, total } = await docs.listChunks(req.tenant, req.params.id, req.query);
      reply.header('X-Total-Count', String(total));
      return rows;
    },
  );

  app.get(
    '/api/documents/:id/download',
    { config: { access: 'documents:read', workspace: true }, schema: { ...tag, params: IdParams } },
    async (req, reply) => sendDownload(reply, await docs.downloadDocument(deps, req.tenant, req.params.id)),
  );

  app.delete(
    '/api/documents/:id',
    {
      config: { access: 'documents:delete', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      await docs.deleteDocument(deps, req.tenant, req.params.id);
      return { success: true as const };
    },
  );

  app.post(
    '/api/documents/bulk-delete',
    {
      config: { access: 'documents:delete', workspace: true },
      bodyLimit: ID_LIST_BODY_LIMIT,
      schema: { ...tag, body: DocumentIdsBody, response: { 200: BulkDeleteResult } },
    },
    async (req) => ({ deleted: await docs.deleteDocuments(deps, req.tenant, req.body.documentIds) }),
  );

  app.post(
    '/api/documents/export',
    {
      config: { access: 'documents:read', workspace: true },
      bodyLimit: ID_LIST_BODY_LIMIT,
      schema: { ...tag, body: DocumentIdsBody },
    },
    async (req, reply) => sendDownload(reply, await docs.exportDocuments(req.tenant, req.body.documentIds)),
  );
}
