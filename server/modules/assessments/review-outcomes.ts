import { and, inArray, isNotNull, sql } from 'drizzle-orm';
import { assessmentQuestions as aq, reviewOutcomes } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';
import type { ReviewOutcome } from '../../../common/schemas/accuracy';
import { answerProvenance, approvalOutcome, normalizeWhitespace, questionTopic } from './outcome-rules';

/** How a review ended: approved (one, bulk approve, bulk accept), marked not applicable, or sent back to the engine. */
export type ReviewEnd = 'approved' | 'not_applicable' | 'regenerated';

/** Rows a statement inserts at once: well under PostgreSQL's 65,535 parameters at 13 a row. */
const CHUNK = 1000;

/**
 * Records the outcome of these questions' machine answers (outcome-rules.ts) now that their review ended, in the
 * review step's own transaction `tx`, so an approval and its outcome land together or not at all. A question the
 * engine never answered records nothing; one recorded before gets this outcome instead (a later review wins).
 * Returns how many were recorded.
 */
export async function recordOutcomes(
  tx: DbOrTx,
  ctx: Pick<TenantCtx, 'organizationId' | 'workspaceId' | 'userId'>,
  questionIds: readonly string[],
  end: ReviewEnd,
  at: Date,
): Promise<number> {
  if (questionIds.length === 0) return 0;
  let recorded = 0;
  for (let i = 0; i < questionIds.length; i += CHUNK) {
    const ids = questionIds.slice(i, i + CHUNK);
    const rows = await tx
      .select({
        id: aq.id,
        batchId: aq.batchId,
        question: aq.question,
        answer: aq.answer,
        machineAnswer: aq.machineAnswer,
        machineAnswerType: aq.machineAnswerType,
        machineConfidence: aq.machineConfidence,
        machineSources: aq.machineSources,
      })
      .from(aq)
      .where(and(inTenant(aq, ctx), inArray(aq.id, ids), isNotNull(aq.machineAnswer)));
    const values = rows.flatMap((r) => {
      const machine = r.machineAnswer ?? '';
      if (!normalizeWhitespace(machine)) return [];
      const type = r.machineAnswerType ?? 'unknown';
      const decided: { outcome: ReviewOutcome; editDistance: number | null } =
        end === 'approved' ? approvalOutcome(machine, type, r.answer ?? '') : { outcome: end, editDistance: null };
      const { libraryEntryId, documentIds } = answerProvenance(r.machineSources);
      return [
        {
          organizationId: ctx.organizationId,
          workspaceId: ctx.workspaceId,
          batchId: r.batchId,
          questionId: r.id,
          ...decided,
          confidence: r.machineConfidence ?? 0,
          answerType: type,
          topic: questionTopic(r.question),
          libraryEntryId,
          documentIds,
          reviewedBy: ctx.userId,
          reviewedAt: at,
        },
      ];
    });
    if (values.length === 0) continue;
    await tx
      .insert(reviewOutcomes)
      .values(values)
      .onConflictDoUpdate({
        target: reviewOutcomes.questionId,
        set: {
          outcome: sql`excluded.outcome`,
          editDistance: sql`excluded.edit_distance`,
          confidence: sql`excluded.confidence`,
          answerType: sql`excluded.answer_type`,
          topic: sql`excluded.topic`,
          libraryEntryId: sql`excluded.library_entry_id`,
          documentIds: sql`excluded.document_ids`,
          reviewedBy: sql`excluded.reviewed_by`,
          reviewedAt: sql`excluded.reviewed_at`,
        },
      });
    recorded += values.length;
  }
  return recorded;
}
