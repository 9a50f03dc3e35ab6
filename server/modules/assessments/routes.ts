import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ASSESSMENT_FILE_MAX_BYTES,
  AssessmentDetail,
  AssessmentQuestionView,
  BatchView,
  ExportQuery,
  ImportCsvBody,
  ImportFileFields,
  ImportResult,
  PreviewResponse,
  QuestionParams,
  RetryResult,
  SaveToLibraryBody,
  SaveToLibraryResult,
  UpdateQuestionBody,
} from '../../../common/schemas/assessments';
import { IdParams, SuccessResponse } from '../../../common/schemas/errors';
import { requireTenant } from '../../http/context';
import { authorize } from '../../http/policies';
import { AppError, badRequest } from '../../http/errors';
import { hasInvisibleCharacters, INVISIBLE_NAME_MESSAGE } from '../../../common/file-names';
import { attachmentHeader } from '../documents/routes';
import { exportCsv, exportFileName, exportJson, exportOriginalFile, exportXlsx } from './export';
import { getDetail, loadQuestions, regenerateQuestion, retryFailed, saveToLibrary, updateQuestion } from './review';
import { deleteBatch, getBatchView, importCsv, importFile, listBatches, loadBatch, previewFile } from './service';

import { MIME } from '../../ingest/detect';

const tag = { tags: ['assessments'] };
const XLSX_MIME = MIME.xlsx;
const ORIGINAL_MIME = { xlsx: MIME.xlsx, csv: `${MIME.csv}; charset=utf-8`, docx: MIME.docx } as const;
const MAX_MB = ASSESSMENT_FILE_MAX_BYTES / 1024 / 1024;

async function assessmentCtx(req: FastifyRequest) {
  const ctx = await requireTenant(req);
  const { storage, wakeWorker, config } = req.server.deps;
  return {
    ...ctx,
    storage,
    wake: wakeWorker,
    quotaBytes: config.uploads.quotaBytes,
    openQuestionsMax: config.qa.openAssessmentQuestionsPerOrg,
  };
}

/**
 * The multipart body of an import or preview: one `file` part and text fields. The file is read into memory (at
 * most ASSESSMENT_FILE_MAX_BYTES) because every questionnaire format needs random access to parse.
 */
async function readUpload(
  req: FastifyRequest,
): Promise<{ bytes: Uint8Array; fileName: string; fields: ImportFileFields }> {
  if (!req.isMultipart()) throw badRequest('Send the questionnaire as multipart/form-data with a "file" part');
  let file: { bytes: Uint8Array; fileName: string } | null = null;
  const raw: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          await part.toBuffer();
          throw badRequest('Send exactly one file, in the "file" part');
        }
        const bytes = await part.toBuffer();
        file = { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), fileName: part.filename };
      } else if (typeof part.value === 'string') {
        raw[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        413,
        'payload_too_large',
        `The file is larger than ${MAX_MB} MB. Split it into smaller files.`,
      );
    }
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw badRequest('Too many parts: send one file and the form fields');
    }
    throw badRequest('The upload could not be read. Try again.');
  }
  if (!file) throw badRequest('Please select a file to import');
  // PostgreSQL cannot store NUL: refused here with a sentence, never left to fail as SQL.
  if (Object.entries(raw).some(([k, v]) => k.includes('\u0000') || v.includes('\u0000'))) {
    throw badRequest('Form fields cannot contain NUL characters.');
  }
  if (hasInvisibleCharacters(file.fileName)) throw badRequest(INVISIBLE_NAME_MESSAGE);
  if (file.bytes.byteLength === 0) throw badRequest('The file is empty.');
  const fields = ImportFileFields.safeParse(raw);
  if (!fields.success) throw badRequest(fields.error.issues[0]?.message ?? 'Invalid form fields');
  return { ...file, fields: fields.data };
}

export async function assessmentRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/assessments',
    { config: { policy: 'assessments:read' }, schema: { ...tag, response: { 200: z.array(BatchView) } } },
    async (req) => {
      const ctx = await requireTenant(req);
      return listBatches(ctx);
    },
  );

  app.post(
    '/api/assessments/import-csv',
    {
      config: { policy: 'assessments:run' },
      bodyLimit: ASSESSMENT_FILE_MAX_BYTES + 64 * 1024,
      schema: { ...tag, body: ImportCsvBody, response: { 201: ImportResult } },
    },
    async (req, reply) => {
      const ctx = await assessmentCtx(req);
      return reply.code(201).send(await importCsv(ctx, req.body));
    },
  );

  app.post(
    '/api/assessments/preview',
    { config: { policy: 'assessments:run' }, schema: { ...tag, response: { 200: PreviewResponse } } },
    async (req) => {
      // Nothing of the workspace is read, but a workspace of another organization is still "not found".
      await requireTenant(req);
      const upload = await readUpload(req);
      return previewFile(upload.bytes, upload.fileName, upload.fields.mapping);
    },
  );

  app.post(
    '/api/assessments/import',
    { config: { policy: 'assessments:run' }, schema: { ...tag, response: { 201: ImportResult } } },
    async (req, reply) => {
      const ctx = await assessmentCtx(req);
      const upload = await readUpload(req);
      if (!upload.fields.name && !upload.fields.customerName) {
        throw badRequest('Please provide assessment name and upload a CSV file.');
      }
      return reply.code(201).send(await importFile(ctx, upload, upload.fields));
    },
  );

  /** The Ask screen's Bulk Import: a customer name and a file become a new assessment (SPEC §7). */
  app.post(
    '/api/import-qa',
    { config: { policy: 'assessments:run' }, schema: { ...tag, response: { 201: ImportResult } } },
    async (req, reply) => {
      const ctx = await assessmentCtx(req);
      const upload = await readUpload(req);
      if (!upload.fields.customerName) throw badRequest('Please enter a customer/account name');
      return reply.code(201).send(await importFile(ctx, upload, upload.fields));
    },
  );

  app.get(
    '/api/assessments/:id',
    {
      config: { policy: 'assessments:read' },
      schema: { ...tag, params: IdParams, response: { 200: AssessmentDetail } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      return getDetail(ctx, req.params.id);
    },
  );

  app.get(
    '/api/assessments/:id/export',
    { config: { policy: 'assessments:read' }, schema: { ...tag, params: IdParams, querystring: ExportQuery } },
    async (req, reply) => {
      const ctx = await assessmentCtx(req);
      const batch = await loadBatch(ctx, req.params.id);
      const rows = await loadQuestions(ctx, batch.id);
      reply.header('Cache-Control', 'private, no-store');
      const opts = { drafts: req.query.drafts ?? false };
      if (req.query.format === 'csv') {
        return reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header('Content-Disposition', attachmentHeader(exportFileName(batch, 'csv')))
          .send(exportCsv(rows, opts));
      }
      if (req.query.format === 'original') {
        const { bytes, extension } = await exportOriginalFile(ctx.storage, batch, rows, opts);
        return reply
          .header('Content-Type', ORIGINAL_MIME[extension])
          .header('Content-Disposition', attachmentHeader(exportFileName(batch, extension)))
          .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      }
      if (req.query.format === 'xlsx') {
        const bytes = await exportXlsx(ctx.storage, batch, rows, req.query.sources ?? false, {
          ...opts,
          generic: req.query.generic ?? false,
        });
        return reply
          .header('Content-Type', XLSX_MIME)
          .header('Content-Disposition', attachmentHeader(exportFileName(batch, 'xlsx')))
          .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      }
      return exportJson(batch, rows, opts);
    },
  );

  app.delete(
    '/api/assessments/:id',
    {
      config: { policy: 'assessments:delete' },
      schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      const ctx = await assessmentCtx(req);
      await deleteBatch(ctx, req.params.id);
      return { success: true as const };
    },
  );

  app.put(
    '/api/assessments/:id/questions/:qid',
    {
      config: { policy: 'assessments:run' },
      schema: { ...tag, params: QuestionParams, body: UpdateQuestionBody, response: { 200: AssessmentQuestionView } },
    },
    async (req) => {
      const ctx = await requireTenant(req);
      return updateQuestion(ctx, req.params.id, req.params.qid, req.body);
    },
  );

  app.post(
    '/api/assessments/:id/questions/:qid/regenerate',
    {
      config: { policy: 'assessments:run' },
      schema: { ...tag, params: QuestionParams, response: { 200: AssessmentQuestionView } },
    },
    async (req) => {
      const ctx = await assessmentCtx(req);
      return regenerateQuestion(ctx, req.params.id, req.params.qid);
    },
  );

  app.post(
    '/api/assessments/:id/questions/:qid/library',
    {
      config: { policy: 'assessments:run' },
      schema: { ...tag, params: QuestionParams, body: SaveToLibraryBody, response: { 201: SaveToLibraryResult } },
    },
    async (req, reply) => {
      const ctx = await requireTenant(req);
      authorize(ctx, 'knowledge:create_draft');
      return reply.code(201).send(await saveToLibrary(ctx, req.params.id, req.params.qid, req.body.tags));
    },
  );

  app.post(
    '/api/assessments/:id/retry-failed',
    { config: { policy: 'assessments:run' }, schema: { ...tag, params: IdParams, response: { 200: RetryResult } } },
    async (req) => {
      const ctx = await assessmentCtx(req);
      return { retried: await retryFailed(ctx, req.params.id) };
    },
  );

  app.get(
    '/api/assessments/:id/batch',
    { config: { policy: 'assessments:read' }, schema: { ...tag, params: IdParams, response: { 200: BatchView } } },
    async (req) => {
      const ctx = await requireTenant(req);
      return getBatchView(ctx, req.params.id);
    },
  );
}
