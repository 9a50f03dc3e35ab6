import { and, eq, inArray, isNotNull, isNull, ne, gte, sql, type SQL } from 'drizzle-orm';
import { assessmentQuestions as aq, users } from '../../db/schema';
import { inTransaction } from '../../db/client';
import { badRequest, conflict, selectionNotFound } from '../../errors';
import { authorize } from '../../authorize';
import type { TenantCtx } from '../../context';
import type { AppDeps } from '../../deps';
import { inTenant } from '../../tenancy';
import { can } from '../../../common/policies';
import type { StoredRole } from '../../../common/roles';
import {
  REVIEW_ACTIONS,
  REVIEW_STATE_LABELS,
  type ReviewAction,
  type ReviewState,
} from '../../../common/review-states';
import type { BulkReviewBody, BulkReviewResult } from '../../../common/schemas/assessments';
import { audit } from '../audit/service';
import { activeCalibration, statedCutFor } from '../admin/calibration';
import { hasAnswer } from './presenters';
import { loadQuestion, viewQuestion } from './review';
import { recordOutcomes } from './review-outcomes';
import { loadBatch } from './service';
import { settleBatch } from './settle';
import { inReviewCount, notifyAssignment, notifyReview, reviewersToMail, shouldMailAssignment } from './notifications';

/** Why an action does not fit the state the question is in, in a sentence naming that state. */
const NOT_FROM: Record<ReviewAction, string> = {
  submit: 'Only a drafted answer can be submitted for review',
  approve: 'Only a drafted or submitted answer can be approved',
  return: 'Only an answer in review or approved can be sent back',
  not_applicable: 'This question is already marked not applicable',
  reopen: 'Only a question marked not applicable can be reopened',
};

const stillAnswering = (q: { status: string }) => q.status === 'pending' || q.status === 'processing';

/**
 * Moves one question to its next review state (common/review-states.ts): submitted by its author, approved or sent
 * back by a reviewer, marked not applicable or reopened. A state the action does not start from is a 409 naming
 * the state, so two reviewers acting at once cannot, say, approve an answer the other just sent back. A submit
 * e-mails the reviewer(s) it waits for (notifications.ts: who, and how seldom).
 */
export async function reviewQuestion(
  deps: Pick<AppDeps, 'mailer' | 'config' | 'log'>,
  ctx: TenantCtx,
  batchId: string,
  qid: string,
  action: ReviewAction,
  seen?: { answeredAt?: string | null },
) {
  const rule = REVIEW_ACTIONS[action];
  authorize(ctx, rule.action);
  const q = await loadQuestion(ctx, batchId, qid);
  if (seen?.answeredAt !== undefined && !sameInstant(seen.answeredAt, q.answeredAt)) {
    throw conflict('The answer changed since you opened it. Read the new answer, then try again.');
  }
  const from = q.reviewState as ReviewState;
  if (!(rule.from as readonly ReviewState[]).includes(from)) {
    throw conflict(action === 'not_applicable' ? NOT_FROM[action] : `${NOT_FROM[action]}; this one is ${label(from)}.`);
  }
  if (rule.needsAnswer && stillAnswering(q)) {
    throw conflict('Verity is still answering this question. Wait for its answer, or write one yourself.');
  }
  if (rule.needsAnswer && !hasAnswer(q)) throw conflict('This question has no answer yet. Write one first.');
  const to: ReviewState = action === 'reopen' ? (hasAnswer(q) ? 'drafted' : 'needs_answer') : rule.to;
  const decided = to === 'approved' || to === 'not_applicable';
  const batch = action === 'submit' ? await loadBatch(ctx, batchId) : null;
  const now = new Date();
  const mail = await inTransaction(ctx.db, async (tx) => {
    const [changed] = await tx
      .update(aq)
      .set({
        reviewState: to,
        reviewedAt: decided ? now : null,
        reviewedBy: decided ? ctx.userId : null,
        // A question that does not apply is not answered, nor retried: a worker still at it drops its answer (claim
        // check), and a failed one is done with.
        ...(to === 'not_applicable' && { status: 'completed', claimedAt: null, errorMessage: null }),
        updatedAt: now,
      })
      .where(and(inTenant(aq, ctx), eq(aq.id, qid), eq(aq.reviewState, from)))
      .returning({ id: aq.id });
    // Someone else moved it meanwhile (between the read above and this write): their change stands.
    if (!changed) throw conflict('Someone else changed this question meanwhile. Refresh the page and try again.');
    if (to === 'not_applicable') await settleBatch(tx, ctx, batchId);
    // The review of the machine's answer ends here (review-outcomes.ts); return and reopen leave its outcome be.
    if (to === 'approved' || to === 'not_applicable') await recordOutcomes(tx, ctx, [qid], to, now);
    const reviewers = batch ? await reviewersToMail(tx, ctx, batch, q.assigneeId) : [];
    await audit({ ...ctx, db: tx }, 'assessment_question_reviewed', 'assessment', batchId, {
      questionId: qid,
      action,
      from,
      to,
      ...(reviewers.length > 0 && { mailedTo: reviewers.map((r) => r.id) }),
    });
    return reviewers.length > 0 ? { reviewers, waiting: await inReviewCount(tx, ctx, batchId) } : null;
  });
  if (batch && mail) notifyReview(deps, { ...mail, by: ctx.username, batch });
  return viewQuestion(ctx, batchId, qid);
}

const sameInstant = (iso: string | null, at: Date | null) =>
  iso === null || at === null ? iso === at : new Date(iso).getTime() === at.getTime();

const label = (state: ReviewState) => REVIEW_STATE_LABELS[state].toLowerCase();

type Selection = Extract<BulkReviewBody, { selection: unknown }>['selection'];

/** The questions of the batch a bulk action picks: named ones (all must be there), or one section's. */
async function selectionWhere(ctx: TenantCtx, batchId: string, selection: Selection): Promise<SQL> {
  const inBatch = and(inTenant(aq, ctx), eq(aq.batchId, batchId)) as SQL;
  if (selection.questionIds) {
    const ids = [...new Set(selection.questionIds)];
    const found = await ctx.db
      .select({ id: aq.id })
      .from(aq)
      .where(and(inBatch, inArray(aq.id, ids)));
    if (found.length < ids.length) throw selectionNotFound(ids.length - found.length, 'questions', 'the assessment');
    return and(inBatch, inArray(aq.id, ids)) as SQL;
  }
  const section = selection.section ?? null;
  const where = and(inBatch, section === null ? isNull(aq.section) : eq(aq.section, section)) as SQL;
  const [any] = await ctx.db.select({ id: aq.id }).from(aq).where(where).limit(1);
  if (!any) {
    throw badRequest(
      section === null
        ? 'Every question of this assessment has a section: choose one.'
        : `No question of this assessment is in the section "${section}".`,
    );
  }
  return where;
}

/** Machine answers and a person's, with an answer to approve, that are drafted or submitted and not being redone. */
const approvable = () =>
  and(
    eq(aq.status, 'completed'),
    isNotNull(aq.answer),
    inArray(aq.reviewState, ['drafted', 'in_review']),
    sql`(${aq.answerOrigin} = 'person' or ${aq.answerType} <> 'unknown')`,
  );

/**
 * One action on many questions (PRODUCT §9 Review): accept every machine answer at or above a confidence, approve
 * or mark not applicable a selection, or assign a selection (a section, say) to a person with a due date. Questions
 * the action does not fit (already approved, no answer yet) are left as they are; the count says how many changed.
 */
export async function bulkReview(
  deps: AppDeps,
  ctx: TenantCtx,
  batchId: string,
  body: BulkReviewBody,
): Promise<BulkReviewResult> {
  authorize(ctx, body.action === 'assign' ? 'assessments:assign' : 'assessments:approve');
  const batch = await loadBatch(ctx, batchId);
  if (body.action === 'assign') return assign(deps, ctx, batch, body);
  if (body.action === 'approve') return approveSeen(ctx, batchId, body);
  const now = new Date();
  // "Accept ≥ N%" compares the figure the reviewer sees: with the workspace's calibration on, the recalibrated one
  // (monotone, so it is exactly a cut on the stored confidence).
  const calibration = body.action === 'accept' ? await activeCalibration(ctx) : null;
  const minStated = body.action === 'accept' && calibration ? statedCutFor(calibration, body.minConfidence) : undefined;
  const where =
    body.action === 'accept'
      ? and(
          inTenant(aq, ctx),
          eq(aq.batchId, batchId),
          approvable(),
          eq(aq.answerOrigin, 'machine'),
          // A draft library entry's answer is not approved knowledge, however confident: a person approves it.
          ne(aq.answerType, 'draft'),
          gte(aq.confidence, minStated ?? body.minConfidence),
        )
      : and(await selectionWhere(ctx, batchId, body.selection), ne(aq.reviewState, 'not_applicable'));
  const updated = await inTransaction(ctx.db, async (tx) => {
    const rows = await tx
      .update(aq)
      .set({
        reviewState: body.action === 'not_applicable' ? 'not_applicable' : 'approved',
        reviewedAt: now,
        reviewedBy: ctx.userId,
        // See reviewQuestion: a question that does not apply is not answered by a worker still at it.
        ...(body.action === 'not_applicable' && { status: 'completed', claimedAt: null, errorMessage: null }),
        updatedAt: now,
      })
      .where(where)
      .returning({ id: aq.id });
    if (body.action === 'not_applicable' && rows.length > 0) await settleBatch(tx, ctx, batchId);
    await recordOutcomes(
      tx,
      ctx,
      rows.map((r) => r.id),
      body.action === 'not_applicable' ? 'not_applicable' : 'approved',
      now,
    );
    await audit({ ...ctx, db: tx }, 'assessment_bulk_reviewed', 'assessment', batchId, {
      action: body.action,
      ...(body.action === 'accept' && { minConfidence: body.minConfidence }),
      questions: rows.length,
    });
    return rows.length;
  });
  return { updated };
}

/**
 * Approves the selection's approvable answers that are still the ones the reviewer saw (the bulk form of
 * reviewQuestion's `answeredAt` check): an answer rewritten, regenerated or first written after they loaded the
 * page, or one they did not list, is left as it is and counted in `skippedChanged`, so nobody approves text they
 * never read. The rows are locked while compared, so an answer cannot change between the check and the approval.
 */
async function approveSeen(
  ctx: TenantCtx,
  batchId: string,
  body: Extract<BulkReviewBody, { action: 'approve' }>,
): Promise<BulkReviewResult> {
  const where = and(await selectionWhere(ctx, batchId, body.selection), approvable());
  const seen = new Map(Object.entries(body.answeredAt));
  const now = new Date();
  return inTransaction(ctx.db, async (tx) => {
    const rows = await tx.select({ id: aq.id, answeredAt: aq.answeredAt }).from(aq).where(where).for('update');
    const ids = rows
      .filter((r) => {
        const saw = seen.get(r.id);
        return saw !== undefined && sameInstant(saw, r.answeredAt);
      })
      .map((r) => r.id);
    if (ids.length > 0) {
      await tx
        .update(aq)
        .set({ reviewState: 'approved', reviewedAt: now, reviewedBy: ctx.userId, updatedAt: now })
        .where(and(inTenant(aq, ctx), eq(aq.batchId, batchId), inArray(aq.id, ids)));
      await recordOutcomes(tx, ctx, ids, 'approved', now);
    }
    const skippedChanged = rows.length - ids.length;
    await audit({ ...ctx, db: tx }, 'assessment_bulk_reviewed', 'assessment', batchId, {
      action: 'approve',
      questions: ids.length,
      skippedChanged,
    });
    return { updated: ids.length, skippedChanged };
  });
}

/** A person of the organization who may answer questions (a viewer may not), or a 400 saying why not. */
async function assignableUser(ctx: TenantCtx, userId: string) {
  const [user] = await ctx.db
    .select({ id: users.id, username: users.username, email: users.email, role: users.role })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organizationId, ctx.organizationId), isNull(users.deletedAt)));
  if (!user) throw badRequest('The person to assign is not a member of this organization.');
  if (!can(user.role as StoredRole, 'assessments:run')) {
    throw badRequest(
      `${user.username} is a viewer and cannot answer questions. Choose a contributor, manager or admin.`,
    );
  }
  return user;
}

async function assign(
  deps: AppDeps,
  ctx: TenantCtx,
  batch: Awaited<ReturnType<typeof loadBatch>>,
  body: Extract<BulkReviewBody, { action: 'assign' }>,
) {
  const assignee = body.assigneeId ? await assignableUser(ctx, body.assigneeId) : null;
  const where = await selectionWhere(ctx, batch.id, body.selection);
  const now = new Date();
  const { updated, mail } = await inTransaction(ctx.db, async (tx) => {
    const rows = await tx
      .update(aq)
      .set({
        assigneeId: assignee?.id ?? null,
        assignedAt: assignee ? now : null,
        ...(body.dueOn !== undefined && { dueOn: body.dueOn }),
        // A new assignee or due date gets its own overdue reminder.
        overdueNotifiedAt: null,
        updatedAt: now,
      })
      .where(where)
      .returning({ id: aq.id });
    // Nobody is mailed about their own assignment, nor twice about one assessment within the window.
    const mailed =
      assignee !== null &&
      assignee.id !== ctx.userId &&
      rows.length > 0 &&
      (await shouldMailAssignment(tx, ctx, batch.id, assignee.id));
    await audit({ ...ctx, db: tx }, 'assessment_questions_assigned', 'assessment', batch.id, {
      assigneeId: assignee?.id ?? null,
      dueOn: body.dueOn ?? null,
      questions: rows.length,
      ...(mailed && { mailed: true }),
    });
    return { updated: rows.length, mail: mailed ? assignee : null };
  });
  if (mail) {
    notifyAssignment(deps, { assignee: mail, by: ctx.username, batch, questions: updated, dueOn: body.dueOn ?? null });
  }
  return { updated };
}
