import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import {
  assessmentBatches as ab,
  assessmentQuestions as aq,
  canonicalAnswers as ca,
  librarySuggestions as ls,
  users,
} from '../../db/schema';
import { inTransaction } from '../../db/client';
import { conflict, notFound } from '../../errors';
import type { TenantCtx } from '../../context';
import type { AppDeps } from '../../deps';
import { inTenant } from '../../tenancy';
import type { AssessmentDetail, AssessmentProgress } from '../../../common/schemas/assessments';
import type { ReviewState } from '../../../common/review-states';
import { audit } from '../audit/service';
import { staleEntryIds } from '../knowledge/freshness';
import { findContradictions, withoutNumbering } from './consistency';
import { replacesCustomerAnswer } from './export';
import {
  NO_REVIEW_COUNTS,
  presentBatch,
  presentQuestion,
  storedSources,
  type BatchRow,
  type QuestionExtras,
  type QuestionRow,
} from './presenters';
import { loadBatch } from './service';
import { settleBatch } from './settle';
import { recordOutcomes } from './review-outcomes';
import { activeCalibration } from '../admin/calibration';

export function progressOf(rows: readonly { status: string }[]): AssessmentProgress {
  let completed = 0;
  let failed = 0;
  for (const r of rows) {
    if (r.status === 'completed') completed++;
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
    if (!r.answeredAt || r.answerOrigin !== 'machine') continue;
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
  // What the filled file will say: the customer's own answer where the export keeps it, else Verity's.
  const conflicts = findContradictions(
    rows.map((r) => ({
      ...r,
      answer: r.existingAnswer && !replacesCustomerAnswer(batch, r) ? withoutNumbering(r.existingAnswer) : r.answer,
    })),
  );
  const extras = await questionExtras(ctx, rows, conflicts);
  const progress = progressOf(rows);
  const review = { ...NO_REVIEW_COUNTS };
  for (const r of rows) review[r.reviewState as ReviewState] += 1;
  return {
    batch: presentBatch(batch, {
      processed: progress.completed + progress.failed,
      failed: progress.failed,
      needsReview: rows.filter((r) => r.answerType === 'unknown' && r.status !== 'pending').length,
      review,
    }),
    questions: rows.map((r) =>
      presentQuestion(r, { ...extras(r), keepsCustomerAnswer: keepsCustomerAnswer(batch, r) }),
    ),
    progress,
  };
}

/**
 * What the review screen shows beside each of these questions, loaded for all of them at once: the people named,
 * the library's word on the entries they came from (changed since, past its review interval) and what "Save to
 * library" made of them.
 */
export async function questionExtras(
  ctx: TenantCtx,
  rows: readonly QuestionRow[],
  conflicts: ReadonlyMap<number, number[]> = new Map(),
): Promise<(row: QuestionRow) => QuestionExtras> {
  const changed = await sourceChanges(ctx, rows);
  const answeredFrom = (r: QuestionRow) =>
    r.answerOrigin === 'machine' ? storedSources(r).find((s) => s.canonicalAnswerId)?.canonicalAnswerId : undefined;
  const stale = await staleEntryIds(
    ctx,
    rows.map(answeredFrom).filter((x): x is string => !!x),
  );
  const personIds = new Set<string>();
  for (const r of rows) for (const id of [r.editedBy, r.reviewedBy, r.assigneeId]) if (id) personIds.add(id);
  const people = personIds.size
    ? new Map(
        (
          await ctx.db
            .select({ id: users.id, username: users.username })
            .from(users)
            .where(and(eq(users.organizationId, ctx.organizationId), inArray(users.id, [...personIds])))
        ).map((u) => [u.id, u.username]),
      )
    : new Map<string, string>();
  const saved = await savedToLibrary(ctx, rows);
  const batchIds = [...new Set(rows.map((r) => r.batchId))];
  const batchDue = batchIds.length
    ? new Map(
        (
          await ctx.db
            .select({ id: ab.id, dueOn: ab.dueOn })
            .from(ab)
            .where(and(inTenant(ab, ctx), inArray(ab.id, batchIds)))
        ).map((b) => [b.id, b.dueOn]),
      )
    : new Map<string, string | null>();
  const calibration = await activeCalibration(ctx);
  return (r) => ({
    calibration,
    sourceChanged: changed.has(r.id),
    conflictsWith: conflicts.get(r.orderIndex) ?? [],
    staleSource: stale.has(answeredFrom(r) ?? ''),
    savedToLibrary: saved.get(r.id) ?? null,
    people,
    batchDueOn: batchDue.get(r.batchId) ?? null,
  });
}

/** What "Save to library" made of each question's answer: its entry's status, or its suggestion's. */
async function savedToLibrary(ctx: TenantCtx, rows: readonly QuestionRow[]) {
  const entryIds = rows.map((r) => r.libraryEntryId).filter((x): x is string => !!x);
  const suggestionIds = rows.map((r) => r.librarySuggestionId).filter((x): x is string => !!x);
  const entries = entryIds.length
    ? new Map(
        (
          await ctx.db
            .select({ id: ca.id, status: ca.status })
            .from(ca)
            .where(and(inTenant(ca, ctx), inArray(ca.id, entryIds)))
        ).map((e) => [e.id, e.status]),
      )
    : new Map<string, string>();
  const suggestions = suggestionIds.length
    ? new Map(
        (
          await ctx.db
            .select({ id: ls.id, status: ls.status })
            .from(ls)
            .where(and(inTenant(ls, ctx), inArray(ls.id, suggestionIds)))
        ).map((e) => [e.id, e.status]),
      )
    : new Map<string, string>();
  const result = new Map<string, NonNullable<QuestionExtras['savedToLibrary']>>();
  for (const r of rows) {
    const entry = r.libraryEntryId ? entries.get(r.libraryEntryId) : undefined;
    if (entry === 'approved' || entry === 'draft') {
      result.set(r.id, { status: entry, canonicalAnswerId: r.libraryEntryId, suggestionId: r.librarySuggestionId });
      continue;
    }
    const suggestion = r.librarySuggestionId ? suggestions.get(r.librarySuggestionId) : undefined;
    if (suggestion === 'pending' || suggestion === 'rejected') {
      result.set(r.id, { status: suggestion, canonicalAnswerId: null, suggestionId: r.librarySuggestionId });
    }
  }
  return result;
}

/** One question as the review screen shows it. */
export async function viewQuestion(ctx: TenantCtx, batchId: string, qid: string) {
  const batch = await loadBatch(ctx, batchId);
  const row = await loadQuestion(ctx, batchId, qid);
  const extras = (await questionExtras(ctx, [row]))(row);
  return presentQuestion(row, { ...extras, keepsCustomerAnswer: keepsCustomerAnswer(batch, row) });
}

/** The customer answered the question in their file, and the export keeps their answer rather than Verity's. */
export function keepsCustomerAnswer(batch: BatchRow, row: QuestionRow): boolean {
  return (row.existingAnswer ?? '').trim() !== '' && !replacesCustomerAnswer(batch, row);
}

export async function loadQuestion(ctx: TenantCtx, batchId: string, qid: string): Promise<QuestionRow> {
  await loadBatch(ctx, batchId);
  const [row] = await ctx.db
    .select()
    .from(aq)
    .where(and(inTenant(aq, ctx), eq(aq.batchId, batchId), eq(aq.id, qid)));
  if (!row) throw notFound('Question');
  return row;
}

/** Sends one question back to the worker for a fresh answer (after the library or documents changed). */
export async function regenerateQuestion(deps: AppDeps, ctx: TenantCtx, batchId: string, qid: string) {
  const q = await loadQuestion(ctx, batchId, qid);
  // Reopening is an approver's decision: a fresh answer must not bring back a question marked not applicable.
  if (q.reviewState === 'not_applicable') {
    throw conflict('This question is marked not applicable. Reopen it before asking for a new answer.');
  }
  await inTransaction(ctx.db, async (tx) => {
    const now = new Date();
    await tx
      .update(aq)
      // A fresh answer may say otherwise: the dropdown follows it again until someone picks.
      .set({
        status: 'pending',
        claimedAt: null,
        attempts: 0,
        errorMessage: null,
        answerChoice: null,
        updatedAt: now,
      })
      .where(and(inTenant(aq, ctx), eq(aq.id, qid)));
    // Sending the machine's answer back ends its review: 'regenerated' (review-outcomes.ts), until the new answer's
    // own review replaces that row.
    await recordOutcomes(tx, ctx, [qid], 'regenerated', now);
    await settleBatch(tx, ctx, batchId);
    await audit({ ...ctx, db: tx }, 'assessment_answer_regenerated', 'assessment', batchId, { questionId: qid });
  });
  deps.wakeWorker?.();
  return viewQuestion(ctx, batchId, qid);
}

export async function retryFailed(deps: AppDeps, ctx: TenantCtx, batchId: string): Promise<number> {
  await loadBatch(ctx, batchId);
  const retried = await inTransaction(ctx.db, async (tx) => {
    const rows = await tx
      .update(aq)
      .set({ status: 'pending', claimedAt: null, attempts: 0, errorMessage: null, updatedAt: new Date() })
      .where(
        and(inTenant(aq, ctx), eq(aq.batchId, batchId), eq(aq.status, 'failed'), ne(aq.reviewState, 'not_applicable')),
      )
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
