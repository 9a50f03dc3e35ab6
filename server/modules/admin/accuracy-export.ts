import { sql } from 'drizzle-orm';
import { toCsv } from '../../../common/import/csv-export';
import type { AccuracyQuery } from '../../../common/schemas/accuracy';
import type { TenantCtx } from '../../context';
import { datedName, plainAttachment, type Download } from '../../download';
import { accuracyPeriod, outcomesIn, topicLabel } from './accuracy';

const COLUMNS = [
  'question',
  'outcome',
  'editDistance',
  'confidence',
  'answerType',
  'topic',
  'assessment',
  'reviewer',
  'reviewedAt',
];

type ExportRow = {
  question: string;
  outcome: string;
  edit_distance: number | null;
  confidence: number;
  answer_type: string;
  topic: string | null;
  assessment: string;
  reviewer: string | null;
  reviewed_at: string | Date;
};

/**
 * The rows behind the accuracy page, one per reviewed machine answer of the period (and band), newest first, as a
 * dated CSV file (the one CSV writer: every cell guarded against formulas).
 */
export async function exportAccuracy(ctx: TenantCtx, query: AccuracyQuery, now = new Date()): Promise<Download> {
  const period = accuracyPeriod(query, now);
  const res = await ctx.db.execute(sql`
    select q.question, r.outcome, r.edit_distance, r.confidence, r.answer_type, r.topic, b.name as assessment,
      u.username as reviewer, r.reviewed_at
    from review_outcomes r
    join assessment_questions q on q.id = r.question_id
    join assessment_batches b on b.id = r.batch_id
    left join users u on u.id = r.reviewed_by
    where ${outcomesIn(ctx, period)}
    order by r.reviewed_at desc, r.id`);
  const rows = (res as unknown as { rows: ExportRow[] }).rows;
  const csv = toCsv([
    COLUMNS,
    ...rows.map((r) => [
      r.question,
      r.outcome,
      r.edit_distance === null ? '' : Number(r.edit_distance).toFixed(3),
      String(r.confidence),
      r.answer_type,
      topicLabel(r.topic),
      r.assessment,
      r.reviewer ?? '',
      new Date(r.reviewed_at).toISOString(),
    ]),
  ]);
  return {
    contentType: 'text/csv; charset=utf-8',
    disposition: plainAttachment(datedName('answer_accuracy', 'csv', now)),
    cacheControl: 'private, no-store',
    body: csv,
  };
}
