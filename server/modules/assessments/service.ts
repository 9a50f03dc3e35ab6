import crypto from 'node:crypto';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { assessmentBatches as ab, assessmentQuestions as aq, qaEntries, qaSessions } from '../../db/schema';
import { inTransaction, type DbOrTx } from '../../db/client';
import { badRequest, conflict, notFound, RateLimited } from '../../errors';
import type { TenantCtx } from '../../context';
import type { AppDeps } from '../../deps';
import { inTenant } from '../../tenancy';
import { newUploadKey } from '../../storage/keys';
import { assertQuota } from '../objects/uploads';
import { audit } from '../audit/service';
import { csvToIntake, readQuestionnaireFile } from '../../ingest/questionnaire/intake';
import type { Intake } from '../../ingest/questionnaire/types';
import { answeredByCustomer } from '../../ingest/questionnaire/customer-answers';
import {
  ASSESSMENT_SECONDS_PER_QUESTION,
  type ImportCsvBody,
  type ImportFileFields,
  type ImportResult,
  type PreviewResponse,
  type PrefilledAnswers,
  type ReviewCounts,
} from '../../../common/schemas/assessments';
import { REVIEW_STATES, type ReviewState } from '../../../common/review-states';
import { presentBatch, type BatchCounts } from './presenters';
import { readWithLayout, rememberCorrection } from './questionnaire-layouts';

/** A questionnaire file as uploaded, with the form's fields (server/http/questionnaire-upload.ts reads it). */
export type QuestionnaireUpload = { bytes: Uint8Array; fileName: string; fields: ImportFileFields };

const INSERT_ROWS = 500;
const PREVIEW_QUESTIONS = 25;

/** The specification's "Estimated time: …" for the toast, from the worker's measured pace (bench:assessment). */
export function estimatedTime(questions: number): string {
  const seconds = Math.max(1, Math.ceil(questions * ASSESSMENT_SECONDS_PER_QUESTION));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

async function countsOf(ctx: TenantCtx, batchIds: string[]): Promise<Map<string, BatchCounts>> {
  if (batchIds.length === 0) return new Map();
  const inState = (state: ReviewState) => sql<number>`count(*) filter (where ${aq.reviewState} = ${state})::int`;
  const rows = await ctx.db
    .select({
      batchId: aq.batchId,
      processed: sql<number>`count(*) filter (where ${aq.status} in ('completed', 'failed'))::int`,
      failed: sql<number>`count(*) filter (where ${aq.status} = 'failed')::int`,
      needsReview: sql<number>`count(*) filter (where ${aq.answerType} = 'unknown' and ${aq.status} <> 'pending')::int`,
      needs_answer: inState('needs_answer'),
      drafted: inState('drafted'),
      in_review: inState('in_review'),
      approved: inState('approved'),
      not_applicable: inState('not_applicable'),
    })
    .from(aq)
    .where(and(inTenant(aq, ctx), inArray(aq.batchId, batchIds)))
    .groupBy(aq.batchId);
  return new Map(
    rows.map((r) => [
      r.batchId,
      {
        processed: r.processed,
        failed: r.failed,
        needsReview: r.needsReview,
        review: Object.fromEntries(REVIEW_STATES.map((s) => [s, r[s]])) as ReviewCounts,
      },
    ]),
  );
}

export async function listBatches(ctx: TenantCtx) {
  const rows = await ctx.db
    .select()
    .from(ab)
    .where(inTenant(ab, ctx))
    .orderBy(desc(ab.createdAt), desc(ab.id))
    .limit(500);
  const counts = await countsOf(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentBatch(r, counts.get(r.id)));
}

/** The batch of this workspace, or 404 — another tenant's id is "not found" like a missing one. */
export async function loadBatch(ctx: TenantCtx, id: string) {
  const [row] = await ctx.db
    .select()
    .from(ab)
    .where(and(inTenant(ab, ctx), eq(ab.id, id)));
  if (!row) throw notFound('Assessment');
  return row;
}

export async function getBatchView(ctx: TenantCtx, id: string) {
  const row = await loadBatch(ctx, id);
  return presentBatch(row, (await countsOf(ctx, [id])).get(id));
}

/** Sets (or clears) the day the customer expects the assessment back. */
export async function setBatchDueDate(ctx: TenantCtx, id: string, dueOn: string | null) {
  await loadBatch(ctx, id);
  await inTransaction(ctx.db, async (tx) => {
    await tx
      .update(ab)
      .set({ dueOn, updatedAt: new Date() })
      .where(and(inTenant(ab, ctx), eq(ab.id, id)));
    // Questions due with the assessment are reminded again for the new day.
    await tx
      .update(aq)
      .set({ overdueNotifiedAt: null })
      .where(and(inTenant(aq, ctx), eq(aq.batchId, id), isNull(aq.dueOn)));
    await audit({ ...ctx, db: tx }, 'assessment_due_date_set', 'assessment', id, { dueOn });
  });
  return getBatchView(ctx, id);
}

type NewBatch = {
  name: string;
  description?: string | null;
  metadata: { sourceFile: string | null; customerName: string | null; assessmentType: string | null };
  intake: Intake;
  storageKey: string | null;
  /** Size and SHA-256 of the stored original, for the quota and `npm run integrity`. */
  file?: { size: number; sha256: string };
  sessionId?: string | null;
  prefilledAnswers?: PrefilledAnswers;
};

/**
 * One organization's questions waiting for the worker are capped, so no tenant can queue work without end on the
 * shared workers (their claims are shared fairly too: server/worker/claim-questions.ts). Under a lock on the
 * organization, so two imports at once cannot both pass the check.
 */
async function checkOpenQuestions(tx: DbOrTx, organizationId: string, adding: number, max: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`assessment-open:${organizationId}`}))`);
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(aq)
    .where(and(eq(aq.organizationId, organizationId), inArray(aq.status, ['pending', 'processing'])));
  const waiting = row?.n ?? 0;
  if (waiting + adding <= max) return;
  const n = (v: number) => v.toLocaleString('en-US');
  throw new RateLimited(
    `Your organization already has ${n(waiting)} assessment questions waiting to be answered, and at most ` +
      `${n(max)} may wait at once: this questionnaire's ${n(adding)} would be too many. Import it when some ` +
      'assessments have finished.',
    60,
  );
}

/** The batch and all its questions in one transaction: an import is never half there. */
async function createBatch(deps: AppDeps, ctx: TenantCtx, input: NewBatch): Promise<ImportResult> {
  const { intake } = input;
  const id = await inTransaction(ctx.db, async (tx) => {
    if (input.sessionId) {
      const [own] = await tx
        .select({ id: qaSessions.id })
        .from(qaSessions)
        .where(and(inTenant(qaSessions, ctx), eq(qaSessions.id, input.sessionId), eq(qaSessions.userId, ctx.userId)));
      if (!own) throw notFound('Session');
      // A bulk assessment's chat holds its questions only (PRODUCT §7): a chat that already has questions or an
      // assessment would have them counted as the assessment's.
      const [inUse] = await tx
        .select({ id: qaSessions.id })
        .from(qaSessions)
        .where(
          and(
            eq(qaSessions.id, input.sessionId),
            sql`(exists (select 1 from ${qaEntries} where ${qaEntries.sessionId} = ${qaSessions.id})
              or exists (select 1 from ${ab} where ${ab.sessionId} = ${qaSessions.id}))`,
          ),
        );
      if (inUse) throw conflict('This chat already has questions. Start the bulk assessment from a new chat.');
    }
    const openMax = deps.config.qa.openAssessmentQuestionsPerOrg;
    await checkOpenQuestions(tx, ctx.organizationId, intake.questions.length, openMax);
    const [batch] = await tx
      .insert(ab)
      .values({
        organizationId: ctx.organizationId,
        workspaceId: ctx.workspaceId,
        createdBy: ctx.userId,
        sessionId: input.sessionId ?? null,
        name: input.name,
        description: input.description || null,
        status: 'processing',
        totalQuestions: intake.questions.length,
        metadata: input.metadata,
        sourceFormat: intake.format,
        storageKey: input.storageKey,
        fileSize: input.file?.size ?? null,
        fileSha256: input.file?.sha256 ?? null,
        mapping: intake.mappings,
        prefilledAnswers: input.prefilledAnswers ?? 'keep',
      })
      .returning({ id: ab.id, createdAt: ab.createdAt });
    if (!batch) throw new Error('insert returned no row');
    for (let i = 0; i < intake.questions.length; i += INSERT_ROWS) {
      await tx.insert(aq).values(
        intake.questions.slice(i, i + INSERT_ROWS).map((q, j) => ({
          batchId: batch.id,
          organizationId: ctx.organizationId,
          workspaceId: ctx.workspaceId,
          orderIndex: i + j + 1,
          question: q.question,
          sheet: q.sheet,
          rowNumber: q.row,
          controlId: q.controlId,
          section: q.section,
          allowedValues: q.allowedValues,
          existingAnswer: q.existingAnswer,
          answerHint: q.answerHint,
          existingComment: q.existingComment,
          // The claim order is (created_at, order_index): every question of a batch shares the batch's time.
          createdAt: batch.createdAt,
        })),
      );
    }
    await audit({ ...ctx, db: tx }, 'assessment_imported', 'assessment', batch.id, {
      name: input.name,
      questions: intake.questions.length,
      format: intake.format,
    });
    return batch.id;
  });
  deps.wakeWorker?.();
  return { id, totalQuestions: intake.questions.length, estimatedTime: estimatedTime(intake.questions.length) };
}

/** PRODUCT: POST /api/assessments/import-csv — headers optional, one question per row. */
export async function importCsv(deps: AppDeps, ctx: TenantCtx, body: ImportCsvBody): Promise<ImportResult> {
  const intake = csvToIntake(body.csvContent);
  return createBatch(deps, ctx, {
    name: body.name.trim(),
    description: body.description,
    metadata: {
      sourceFile: body.metadata?.sourceFile || null,
      customerName: body.metadata?.customerName || null,
      assessmentType: body.metadata?.assessmentType || null,
    },
    intake,
    storageKey: null,
  });
}

/**
 * What a questionnaire file would import, read and not stored: its sheets, mappings and first questions, read with
 * the mapping sent, else with the layout the organization remembered for files of this layout (and it says so).
 */
export async function previewFile(
  ctx: TenantCtx,
  { bytes, fileName, fields }: QuestionnaireUpload,
): Promise<PreviewResponse> {
  const file = await readQuestionnaireFile(bytes, fileName);
  const { intake, remembered } = await readWithLayout(ctx, file, fields.mapping);
  const sheets = intake.sheets.map((s) => {
    const questions = intake.questions.filter((q) => q.sheet === s.name);
    // On a sheet answered by marks the allowed values are the choice columns' labels, not a dropdown.
    const byMarks = (s.mapping?.answerChoiceColumns?.length ?? 0) > 0;
    return {
      name: s.name,
      hidden: s.hidden,
      rowCount: s.rowCount,
      columns: s.columns,
      mapping: s.mapping,
      questionCount: s.questionCount,
      prefilledAnswers: questions.filter((q) => answeredByCustomer(q, byMarks)).length,
      dropdownQuestions: byMarks ? 0 : questions.filter((q) => (q.allowedValues?.length ?? 0) > 0).length,
      skipped: s.skipped,
    };
  });
  return {
    fileName,
    format: intake.format,
    sheets,
    totalQuestions: intake.questions.length,
    prefilledAnswers: sheets.reduce((sum, s) => sum + s.prefilledAnswers, 0),
    questions: intake.questions.slice(0, PREVIEW_QUESTIONS).map((q) => ({
      sheet: q.sheet,
      row: q.row,
      controlId: q.controlId,
      section: q.section,
      question: q.question,
      allowedValues: q.allowedValues,
      existingAnswer: q.existingAnswer,
    })),
    rememberedLayout: remembered,
  };
}

const stem = (fileName: string) => fileName.replace(/\.[^.]+$/, '').trim() || fileName;

/**
 * A questionnaire file: read (or rejected) first, then its original kept in object storage for the export, then
 * the batch. A failure after the file was stored deletes it again; the orphan sweep catches a crash in between.
 */
export async function importFile(
  deps: AppDeps,
  ctx: TenantCtx,
  file: QuestionnaireUpload,
  required: 'name' | 'customer',
): Promise<ImportResult> {
  const { fields } = file;
  if (required === 'name' && !fields.name && !fields.customerName) {
    throw badRequest('Please provide assessment name and upload a CSV file.');
  }
  if (required === 'customer' && !fields.customerName) throw badRequest('Please enter a customer/account name');
  await assertQuota(ctx.db, ctx.organizationId, deps.config.uploads.quotaBytes, file.bytes.byteLength);
  const parsed = await readQuestionnaireFile(file.bytes, file.fileName);
  const { intake } = await readWithLayout(ctx, parsed, fields.mapping);
  const storageKey = newUploadKey(ctx.organizationId);
  await deps.storage.write(storageKey, file.bytes);
  const stored = {
    size: file.bytes.byteLength,
    sha256: crypto.createHash('sha256').update(file.bytes).digest('hex'),
  };
  let result: ImportResult;
  try {
    const customer = fields.customerName || null;
    const fileName = file.fileName.slice(0, 255);
    result = await createBatch(deps, ctx, {
      name: (fields.name || (customer ? `${customer} - ${stem(fileName)}` : stem(fileName))).slice(0, 200),
      description: fields.description,
      metadata: { sourceFile: fileName, customerName: customer, assessmentType: fields.assessmentType || null },
      intake,
      storageKey,
      file: stored,
      sessionId: fields.sessionId,
      prefilledAnswers: fields.prefilledAnswers,
    });
  } catch (err) {
    await deps.storage.delete(storageKey).catch(() => undefined);
    throw err;
  }
  // The assessment stands either way: a correction not remembered costs the next import a correction, no more.
  if (fields.mapping) {
    await rememberCorrection(ctx, parsed, intake).catch((err: unknown) => {
      deps.log.warn({ err, organizationId: ctx.organizationId }, 'a corrected questionnaire layout was not remembered');
    });
  }
  return result;
}

/**
 * Deletes a batch with its questions and its stored original. Questions go first: a worker finishing one of them
 * locks the question, then the batch, and deleting in the same order cannot deadlock with it.
 */
export async function deleteBatch(deps: AppDeps, ctx: TenantCtx, id: string): Promise<void> {
  const batch = await loadBatch(ctx, id);
  await inTransaction(ctx.db, async (tx) => {
    await tx.delete(aq).where(and(inTenant(aq, ctx), eq(aq.batchId, id)));
    await tx.delete(ab).where(and(inTenant(ab, ctx), eq(ab.id, id)));
    await audit({ ...ctx, db: tx }, 'assessment_deleted', 'assessment', id, { name: batch.name });
  });
  if (batch.storageKey) await deps.storage.delete(batch.storageKey).catch(() => undefined);
}
