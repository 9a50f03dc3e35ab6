import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ASSESSMENT_FILE_MAX_BYTES,
  AssessmentDetail,
  AssessmentQuestionView,
  BatchView,
  BulkReviewBody,
  BulkReviewResult,
  ExportQuery,
  ImportCsvBody,
  ImportResult,
  MyQuestionsResponse,
  PreviewResponse,
  QuestionParams,
  RetryResult,
  ReviewActionBody,
  ReviewQueue,
  SaveToLibraryBody,
  SaveToLibraryResult,
  UpdateBatchBody,
  UpdateQuestionBody,
  AnswerChoiceBody,
} from '../../../common/schemas/assessments';
import { IdParams, SuccessResponse } from '../../../common/schemas/errors';
import { EvidenceQuery, EvidenceResponse } from '../../../common/schemas/evidence';
import { readQuestionnaireUpload } from '../../http/questionnaire-upload';
import { sendDownload } from '../../http/send-download';
import { questionEvidence } from './evidence';
import { exportAssessment } from './export-file';
import { chooseAnswerValue, updateQuestion } from './answer-edit';
import { myQuestions, reviewQueue } from './my-questions';
import { getDetail, regenerateQuestion, retryFailed } from './review';
import { bulkReview, reviewQuestion } from './review-actions';
import { forgetLayout } from './questionnaire-layouts';
import { saveToLibrary } from './save-to-library';
import { deleteBatch, getBatchView, importCsv, importFile, listBatches, previewFile, setBatchDueDate } from './service';

const tag = { tags: ['assessments'] };

export async function assessmentRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { deps } = root;

  app.get(
    '/api/assessments',
    {
      config: { access: 'assessments:read', workspace: true },
      schema: { ...tag, response: { 200: z.array(BatchView) } },
    },
    async (req) => listBatches(req.tenant),
  );

  app.post(
    '/api/assessments/import-csv',
    {
      config: { access: 'assessments:run', workspace: true },
      bodyLimit: ASSESSMENT_FILE_MAX_BYTES + 64 * 1024,
      schema: { ...tag, body: ImportCsvBody, response: { 201: ImportResult } },
    },
    async (req, reply) => reply.code(201).send(await importCsv(deps, req.tenant, req.body)),
  );

  // A workspace of another organization is "not found"; the organization's remembered layouts apply.
  app.post(
    '/api/assessments/preview',
    {
      config: { access: 'assessments:run', workspace: true },
      schema: { ...tag, response: { 200: PreviewResponse } },
    },
    async (req) => previewFile(req.tenant, await readQuestionnaireUpload(req)),
  );

  app.post(
    '/api/assessments/import',
    {
      config: { access: 'assessments:run', workspace: true },
      schema: { ...tag, response: { 201: ImportResult } },
    },
    async (req, reply) =>
      reply.code(201).send(await importFile(deps, req.tenant, await readQuestionnaireUpload(req), 'name')),
  );

  // A layout remembered from a corrected import is the organization's; whoever may import may forget it.
  app.delete(
    '/api/questionnaire-layouts/:id',
    {
      config: { access: 'assessments:run', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      await forgetLayout(req.tenant, req.params.id);
      return { success: true as const };
    },
  );

  /** The Ask screen's Bulk Import: a customer name and a file become a new assessment (PRODUCT §9). */
  app.post(
    '/api/import-qa',
    {
      config: { access: 'assessments:run', workspace: true },
      schema: { ...tag, response: { 201: ImportResult } },
    },
    async (req, reply) =>
      reply.code(201).send(await importFile(deps, req.tenant, await readQuestionnaireUpload(req), 'customer')),
  );

  app.get(
    '/api/assessments/:id',
    {
      config: { access: 'assessments:read', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: AssessmentDetail } },
    },
    async (req) => getDetail(req.tenant, req.params.id),
  );

  app.get(
    '/api/assessments/:id/export',
    {
      config: { access: 'assessments:read', workspace: true },
      schema: { ...tag, params: IdParams, querystring: ExportQuery },
    },
    async (req, reply) => {
      // Set before the export is built, so a refusal (original missing, unsupported) is not cached either.
      reply.header('Cache-Control', 'private, no-store');
      return sendDownload(reply, await exportAssessment(deps, req.tenant, req.params.id, req.query));
    },
  );

  app.patch(
    '/api/assessments/:id',
    {
      config: { access: 'assessments:assign', workspace: true },
      schema: { ...tag, params: IdParams, body: UpdateBatchBody, response: { 200: BatchView } },
    },
    async (req) => setBatchDueDate(req.tenant, req.params.id, req.body.dueOn),
  );

  app.delete(
    '/api/assessments/:id',
    {
      config: { access: 'assessments:delete', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: SuccessResponse } },
    },
    async (req) => {
      await deleteBatch(deps, req.tenant, req.params.id);
      return { success: true as const };
    },
  );

  app.put(
    '/api/assessments/:id/questions/:qid',
    {
      config: { access: 'assessments:run', workspace: true },
      schema: { ...tag, params: QuestionParams, body: UpdateQuestionBody, response: { 200: AssessmentQuestionView } },
    },
    async (req) => updateQuestion(req.tenant, req.params.id, req.params.qid, req.body),
  );

  // What someone writing the answer may quote or cite: the engine's candidates for the question or typed words.
  app.get(
    '/api/assessments/:id/questions/:qid/evidence',
    {
      config: { access: 'assessments:run', workspace: true },
      schema: { ...tag, params: QuestionParams, querystring: EvidenceQuery, response: { 200: EvidenceResponse } },
    },
    async (req) => questionEvidence(deps, req.tenant, req.params.id, req.params.qid, req.query.q),
  );

  app.put(
    '/api/assessments/:id/questions/:qid/choice',
    {
      config: { access: 'assessments:run', workspace: true },
      schema: { ...tag, params: QuestionParams, body: AnswerChoiceBody, response: { 200: AssessmentQuestionView } },
    },
    async (req) => chooseAnswerValue(req.tenant, req.params.id, req.params.qid, req.body),
  );

  // The action decides the role it needs (common/review-states.ts): submitting is a contributor's, the rest an approver's.
  app.post(
    '/api/assessments/:id/questions/:qid/review',
    {
      config: { access: 'assessments:run', workspace: true },
      schema: { ...tag, params: QuestionParams, body: ReviewActionBody, response: { 200: AssessmentQuestionView } },
    },
    async (req) =>
      reviewQuestion(deps, req.tenant, req.params.id, req.params.qid, req.body.action, {
        answeredAt: req.body.answeredAt,
      }),
  );

  // Assigning takes assessments:assign, the other actions assessments:approve: both are a manager's.
  app.post(
    '/api/assessments/:id/review',
    {
      config: { access: 'assessments:approve', workspace: true },
      schema: { ...tag, params: IdParams, body: BulkReviewBody, response: { 200: BulkReviewResult } },
    },
    async (req) => bulkReview(deps, req.tenant, req.params.id, req.body),
  );

  app.get(
    '/api/my-questions',
    {
      config: { access: 'assessments:read', workspace: true },
      schema: { ...tag, response: { 200: MyQuestionsResponse } },
    },
    async (req) => myQuestions(req.tenant),
  );

  // The count of answers waiting for a reviewer: only those who may approve have a queue.
  app.get(
    '/api/review-queue',
    {
      config: { access: 'assessments:approve', workspace: true },
      schema: { ...tag, response: { 200: ReviewQueue } },
    },
    async (req) => reviewQueue(req.tenant),
  );

  app.post(
    '/api/assessments/:id/questions/:qid/regenerate',
    {
      config: { access: 'assessments:run', workspace: true },
      schema: { ...tag, params: QuestionParams, response: { 200: AssessmentQuestionView } },
    },
    async (req) => regenerateQuestion(deps, req.tenant, req.params.id, req.params.qid),
  );

  app.post(
    '/api/assessments/:id/questions/:qid/library',
    {
      config: { access: 'assessments:run', workspace: true },
      schema: { ...tag, params: QuestionParams, body: SaveToLibraryBody, response: { 201: SaveToLibraryResult } },
    },
    async (req, reply) =>
      reply.code(201).send(await saveToLibrary(req.tenant, req.params.id, req.params.qid, req.body.tags)),
  );

  app.post(
    '/api/assessments/:id/retry-failed',
    {
      config: { access: 'assessments:run', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: RetryResult } },
    },
    async (req) => ({ retried: await retryFailed(deps, req.tenant, req.params.id) }),
  );

  app.get(
    '/api/assessments/:id/batch',
    {
      config: { access: 'assessments:read', workspace: true },
      schema: { ...tag, params: IdParams, response: { 200: BatchView } },
    },
    async (req) => getBatchView(req.tenant, req.params.id),
  );
}
