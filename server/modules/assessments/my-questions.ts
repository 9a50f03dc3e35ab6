import { and, asc, count, countDistinct, eq, inArray, sql } from 'drizzle-orm';
import { assessmentBatches as ab, assessmentQuestions as aq } from '../../db/schema';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';
import type { MyQuestion, ReviewQueue } from '../../../common/schemas/assessments';
import { presentQuestion } from './presenters';
import { questionExtras } from './review';

/** At most this many are listed: a person with more has a backlog, and the soonest due come first. */
const MY_QUESTIONS_MAX = 500;

/**
 * The questions assigned to the caller in this workspace that still need them or a reviewer (not approved, not
 * marked not applicable), across assessments: soonest due first, then by assessment and questionnaire order.
 */
export async function myQuestions(ctx: TenantCtx): Promise<{ questions: MyQuestion[] }> {
  const rows = await ctx.db
    .select({ q: aq, batch: { id: ab.id, name: ab.name, metadata: ab.metadata, dueOn: ab.dueOn } })
    .from(aq)
    .innerJoin(ab, eq(ab.id, aq.batchId))
    .where(
      and(
        inTenant(aq, ctx),
        eq(aq.assigneeId, ctx.userId),
        inArray(aq.reviewState, ['needs_answer', 'drafted', 'in_review']),
      ),
    )
    .orderBy(sql`coalesce(${aq.dueOn}, ${ab.dueOn}) asc nulls last`, asc(ab.createdAt), asc(ab.id), asc(aq.orderIndex))
    .limit(MY_QUESTIONS_MAX);
  const extras = await questionExtras(
    ctx,
    rows.map((r) => r.q),
  );
  return {
    questions: rows.map(({ q, batch }) => ({
      batchId: batch.id,
      batchName: batch.name,
      customerName: batch.metadata.customerName ?? null,
      batchDueOn: batch.dueOn,
      question: presentQuestion(q, extras(q)),
    })),
  };
}

/**
 * What waits for a reviewer in this workspace (the sidebar's badge for those who may approve): every question in
 * review, whoever it was submitted to, since any approver may approve it. Read through the workspace's assessments
 * (their workspace index, then each one's questions), not by scanning every tenant's questions for the state.
 */
export async function reviewQueue(ctx: TenantCtx): Promise<ReviewQueue> {
  const [row] = await ctx.db
    .select({ questions: count(), assessments: countDistinct(aq.batchId) })
    .from(ab)
    .innerJoin(aq, eq(aq.batchId, ab.id))
    .where(and(inTenant(ab, ctx), inTenant(aq, ctx), eq(aq.reviewState, 'in_review')));
  return { questions: row?.questions ?? 0, assessments: row?.assessments ?? 0 };
}
