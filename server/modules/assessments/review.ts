import { and, asc, eq, inArray } from 'drizzle-orm';
import { assessmentQuestions as aq, canonicalAnswers as ca } from '../../db/schema';
import { inTransaction } from '../../db/client';
import { badRequest, notFound } from '../../errors';
import { authorize } from '../../authorize';
import { can } from '../../../common/policies';
import type { TenantCtx } from '../../context';
import type { AppDeps } from '../../deps';
import { inTenant } from '../../tenancy';
import { CreateCanonicalAnswerBody } from '../../../common/schemas/knowledge';
import type { AssessmentDetail, AssessmentProgress, UpdateQuestionBody } from '../../../common/schemas/assessments';
import { audit } from '../audit/service';
import { createAnswer } from '../knowledge/service';
import { brandProfileOf } from '../organizations/service';
import { findContradictions, withoutNumbering } from './consistency';
import { replacesCustomerAnswer } from './export';
import { isDraft, presentBatch, presentQuestion, storedSources, type QuestionRow } from './presenters';
import { loadBatch } from './service';
import { settleBatch } from './settle';

export function progressOf(rows: readonly { status: string }[]): AssessmentProgress {
  let completed = 0;
  let failed = 0;
  for (const r of rows) {
    if (r.status === 'completed' || r.status === 'approved') completed++;
    else if (r.status === 'failed') failed++;
  }
  const total = rows.length;
  const pending = total - completed - failed;
  return {
    completed,
    pending,
    failed,
    total,
    percentage: total ? Math.round((100 * (completed + failed)) / total) : 0,
  };
}

/**
 * Questions whose answer came from a library entry that changed after the answer was given (edited, re-approved
 * or deleted): the answer in the assessment may now be out of date.
 */
async function sourceChanges(ctx: TenantCtx, rows: readonly QuestionRow[]): Promise<Set<string>> {
  const used = new Set<string>();
  for (const r of rows) for (const s of storedSources(r)) if (s.canonicalAnswerId) used.add(s.canonicalAnswerId);
  if (used.size === 0) return new Set();
  const entries = await ctx.db
    .select({ id: ca.id, updatedAt: ca.updatedAt, status: ca.status })
    .from(ca)
    .where(and(inTenant(ca, ctx), inArray(ca.id, [...used])));
  const live = new Map(entries.filter((e) => e.status !== 'archived').map((e) => [e.id, e.updatedAt]));
  const changed = new Set<string>();
  for (const r of rows) {
    if (!r.answeredAt || r.editedBy) continue;
    const ids = storedSources(r)
      .map((s) => s.canonicalAnswerId)
      .filter((id): id is string => !!id);
    // Only the entry that answered counts: other listed entries were context.
    const first = ids[0];
    if (!first) continue;
    const updated = live.get(first);
    if (!updated || updated.getTime() > r.answeredAt.getTime()) changed.add(r.id);
  }
  return changed;
}

/** The questions of one batch of the caller's workspace, in questionnaire order. */
export async function loadQuestions(ctx: TenantCtx, batchId: string): Promise<QuestionRow[]> {
  return ctx.db
    .select()
    .from(aq)
    .where(and(inTenant(aq, ctx), eq(aq.batchId, batchId)))
    .orderBy(asc(aq.orderIndex));
}

export async function getDetail(ctx: TenantCtx, id: string): Promise<AssessmentDetail> {
  const batch = await loadBatch(ctx, id);
  const rows = await loadQuestions(ctx, id);
  const changed = await sourceChanges(ctx, rows);
  // What the filled file will say: the customer's own answer where the export keeps it, else Verity's.
  const conflicts = findContradictions(
    rows.map((r) => ({
      ...r,
      answer: r.existingAnswer && !replacesCustomerAnswer(batch, r) ? withoutNumbering(r.existingAnswer) : r.answer,
    })),
  );
  const progress = progressOf(rows);
  return {
    batch: presentBatch(batch, {
      processed: progress.completed + progress.failed,
      failed: progress.failed,
      needsReview: rows.filter((r) => r.answerType === 'unknown' && r.status !== 'pending').length,
    }),
    questions: rows.map((r) =>
      presentQuestion(r, { sourceChanged: changed.has(r.id), conflictsWith: conflicts.get(r.orderIndex) ?? [] }),
    ),
    progress,
  };
}

async function loadQuestion(ctx: TenantCtx, batchId: string, qid: string): Promise<QuestionRow> {
  await loadBatch(ctx, batchId);
  const [row] = await ctx.db
    .select()
    .from(aq)
    .where(and(inTenant(aq, ctx), eq(aq.batchId, batchId), eq(aq.id, qid)));
  if (!row) throw notFound('Question');
  return row;
}

/**
 * A reviewer's edit and/or acceptance. A person's answer wins over a worker still answering: the question leaves
 * `processing`, so the worker's claim check drops its late answer. A person's wording is a draft: approving it
 * takes `assessments:approve` (an approver's own wording is approved as written), and a contributor changing it
 * again withdraws an earlier approval, because exports leave unapproved drafts out: a contributor must not be
 * able to put their own words in front of a customer.
 */
export async function updateQuestion(ctx: TenantCtx, batchId: string, qid: string, body: UpdateQuestionBody) {
  const current = await loadQuestion(ctx, batchId, qid);
  const answer = body.answer?.trim();
  if (!answer && (!current.answer || current.answerType === 'unknown')) {
    throw badRequest('This question has no answer yet: write one before accepting it');
  }
  const rewritten = answer !== undefined && answer !== current.answer;
  if (body.status === 'approved' && (rewritten || isDraft(current))) {
    authorize(ctx, 'assessments:approve');
  }
  // Like a library entry, the answer of someone who may approve is approved as they write it.
  const keptApproval = current.status === 'approved' && !rewritten;
  const ownApproval = rewritten && can(ctx.role, 'assessments:approve');
  const status = body.status ?? (keptApproval || ownApproval ? 'approved' : 'completed');
  const now = new Date();
  await inTransaction(ctx.db, async (tx) => {
    await tx
      .update(aq)
      .set({
        ...(rewritten && { answer, editedBy: ctx.userId, errorMessage: null }),
        // A person's own wording is a draft of theirs: no longer the library's verbatim answer nor 'Needs Review'.
        ...(rewritten && { answerType: 'draft', confidence: current.confidence ?? 0 }),
        status,
        reviewedAt: status === 'approved' ? (keptApproval && !body.status ? current.reviewedAt : now) : null,
        claimedAt: null,
        answeredAt: current.answeredAt ?? now,
        updatedAt: now,
      })
      .where(and(inTenant(aq, ctx), eq(aq.id, qid)));
    await settleBatch(tx, ctx, batchId);
    await audit({ ...ctx, db: tx }, 'assessment_answer_reviewed', 'assessment', batchId, {
      questionId: qid,
      edited: answer !== undefined,
      status: body.status ?? null,
    });
  });
  return presentQuestion(await loadQuestion(ctx, batchId, qid));
}

/** Sends one question back to the worker for a fresh answer (after the library or documents changed). */
export async function regenerateQuestion(deps: AppDeps, ctx: TenantCtx, batchId: string, qid: string) {
  await loadQuestion(ctx, batchId, qid);
  await inTransaction(ctx.db, async (tx) => {
    await tx
      .update(aq)
      .set({ status: 'pending', claimedAt: null, attempts: 0, errorMessage: null, updatedAt: new Date() })
      .where(and(inTenant(aq, ctx), eq(aq.id, qid)));
    await settleBatch(tx, ctx, batchId);
    await audit({ ...ctx, db: tx }, 'assessment_answer_regenerated', 'assessment', batchId, { questionId: qid });
  });
  deps.wakeWorker?.();
  return presentQuestion(await loadQuestion(ctx, batchId, qid));
}

export async function retryFailed(deps: AppDeps, ctx: TenantCtx, batchId: string): Promise<number> {
  await loadBatch(ctx, batchId);
  const retried = await inTransaction(ctx.db, async (tx) => {
    const rows = await tx
      .update(aq)
      .set({ status: 'pending', claimedAt: null, attempts: 0, errorMessage: null, updatedAt: new Date() })
      .where(and(inTenant(aq, ctx), eq(aq.batchId, batchId), eq(aq.status, 'failed')))
      .returning({ id: aq.id });
    if (rows.length > 0) {
      await settleBatch(tx, ctx, batchId);
      await audit({ ...ctx, db: tx }, 'assessment_failed_retried', 'assessment', batchId, { questions: rows.length });
    }
    return rows.length;
  });
  if (retried > 0) deps.wakeWorker?.();
  return retried;
}

/**
 * Saves a reviewed answer as a new library entry: approved when the caller may approve entries, else a draft for
 * an approver. The brand's disclaimers, which the engine appended, are not part of the entry.
 */
export async function saveToLibrary(ctx: TenantCtx, batchId: string, qid: string, tags: string[]) {
  authorize(ctx, 'knowledge:create_draft');
  const q = await loadQuestion(ctx, batchId, qid);
  if (!q.answer || q.answerType === 'unknown') {
    throw badRequest('Write or accept an answer for this question before saving it to the library');
  }
  const disclaimers = (await brandProfileOf(ctx.db, ctx.organizationId))?.disclaimers.trim();
  const answer =
    disclaimers && q.answer.endsWith(`\n\n${disclaimers}`)
      ? q.answer.slice(0, -disclaimers.length - 2).trim()
      : q.answer;
  const status: 'approved' | 'draft' = can(ctx.role, 'knowledge:approve') ? 'approved' : 'draft';
  const input = CreateCanonicalAnswerBody.safeParse({ question: q.question, answer, tags, status });
  if (!input.success) throw badRequest(input.error.issues[0]?.message ?? 'This answer cannot be saved to the library');
  const entry = await createAnswer(ctx, input.data);
  return { canonicalAnswerId: entry.id, status };
}
