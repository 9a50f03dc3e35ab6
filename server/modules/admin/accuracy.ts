import { sql, type SQL } from 'drizzle-orm';
import { badRequest } from '../../errors';
import type { TenantCtx } from '../../context';
import { topicById } from '../../engine/text/taxonomy';
import {
  ACCURACY_PERIOD_MAX_DAYS,
  CONFIDENCE_BANDS,
  type AccuracyQuery,
  type AccuracyView,
  type ConfidenceBandId,
  type OutcomeCounts,
  type ReviewOutcome,
} from '../../../common/schemas/accuracy';
import type { AnswerType } from '../../../common/schemas/qa';
import { acceptThreshold } from './accept-threshold';
import { presentCalibration, workspaceCalibration } from './calibration';
import { recalibrate } from '../../engine/ranking/recalibrate';

const DAY_MS = 24 * 3600_000;
/** The period when the query names no start: the last 90 days, today included. */
const DEFAULT_PERIOD_DAYS = 90;
const ANSWER_TYPES: readonly AnswerType[] = ['canonical', 'generated', 'draft', 'unknown'];

/** Topic labels of the two keys that are not taxonomy topics. */
const OTHER_TOPIC = 'other';
const UNRECORDED_TOPIC = 'unrecorded';
const TOPIC_LABELS: Record<string, string> = {
  [OTHER_TOPIC]: 'No specific topic',
  [UNRECORDED_TOPIC]: 'Not recorded (reviewed before outcomes were kept)',
};

/** A period of whole UTC days, `from`..`to` inclusive, and the instants that bound it (`end` exclusive). */
export type AccuracyPeriod = { from: string; to: string; start: Date; end: Date; band: ConfidenceBandId | undefined };

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

function dayStart(day: string, name: 'from' | 'to'): Date {
  const at = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(at.getTime()) || isoDay(at) !== day) {
    throw badRequest(`${name} is not a day of the calendar: ${day}. Use YYYY-MM-DD.`);
  }
  return at;
}

/**
 * The query's period, by default the last 90 days up to today (UTC). A period longer than ACCURACY_PERIOD_MAX_DAYS,
 * a day that does not exist or a start after the end is a 400 with a sentence.
 */
export function accuracyPeriod(query: AccuracyQuery, now = new Date()): AccuracyPeriod {
  const toStart = query.to ? dayStart(query.to, 'to') : new Date(`${isoDay(now)}T00:00:00Z`);
  const start = query.from
    ? dayStart(query.from, 'from')
    : new Date(toStart.getTime() - (DEFAULT_PERIOD_DAYS - 1) * DAY_MS);
  if (start.getTime() > toStart.getTime()) throw badRequest('from must not be after to.');
  const days = Math.round((toStart.getTime() - start.getTime()) / DAY_MS) + 1;
  if (days > ACCURACY_PERIOD_MAX_DAYS) {
    throw badRequest(
      `The period is ${days} days long; it can be at most ${ACCURACY_PERIOD_MAX_DAYS} days (two years). Choose a later from or an earlier to.`,
    );
  }
  return {
    from: isoDay(start),
    to: isoDay(toStart),
    start,
    end: new Date(toStart.getTime() + DAY_MS),
    band: query.band,
  };
}

/** The outcomes of the caller's workspace in the period (and band): the filter the page and its export share. */
export function outcomesIn(ctx: TenantCtx, period: AccuracyPeriod): SQL {
  const band = CONFIDENCE_BANDS.find((b) => b.id === period.band);
  return sql`r.organization_id = ${ctx.organizationId} and r.workspace_id = ${ctx.workspaceId}
    and r.reviewed_at >= ${period.start.toISOString()} and r.reviewed_at < ${period.end.toISOString()}
    ${band ? sql`and r.confidence between ${band.min} and ${band.max}` : sql``}`;
}

type Counts = Omit<OutcomeCounts, 'keptShare'>;
const zero = (): Counts => ({ reviewed: 0, unchanged: 0, edited: 0, replaced: 0, notApplicable: 0, regenerated: 0 });
const FIELD: Record<ReviewOutcome, keyof Counts> = {
  unchanged: 'unchanged',
  edited: 'edited',
  replaced: 'replaced',
  not_applicable: 'notApplicable',
  regenerated: 'regenerated',
};
function add(counts: Counts, outcome: string, n: number): void {
  const field = FIELD[outcome as ReviewOutcome] as keyof Counts | undefined;
  if (field) counts[field] += n;
  counts.reviewed += n;
}
const withShare = (c: Counts): OutcomeCounts => ({ ...c, keptShare: c.reviewed ? c.unchanged / c.reviewed : null });

type GroupRow = { grouped: string; key: string | null; outcome: string; n: number };

/**
 * The accuracy page's figures (issue 36) for the caller's workspace: reviewed machine answers by outcome per
 * confidence band, answer type, topic and Monday week, the totals, and the bulk-accept threshold the period's
 * evidence supports. One pass over the period's rows (grouping sets); bands, totals and the threshold are summed from
 * the per-confidence counts.
 */
export async function accuracyView(ctx: TenantCtx, query: AccuracyQuery, now = new Date()): Promise<AccuracyView> {
  const period = accuracyPeriod(query, now);
  // grouping() tells the sets apart: 0 for the set's own key, 1 for a key grouped away (a null topic is a real key).
  const res = await ctx.db.execute(sql`
    select
      case when grouping(r.confidence) = 0 then 'confidence' when grouping(r.answer_type) = 0 then 'type'
        when grouping(r.topic) = 0 then 'topic' else 'week' end as grouped,
      coalesce(r.confidence::text, r.answer_type, r.topic, to_char(r.review_week, 'YYYY-MM-DD')) as key,
      r.outcome, count(*)::int as n
    from review_outcomes r
    where ${outcomesIn(ctx, period)}
    group by grouping sets ((r.outcome, r.confidence), (r.outcome, r.answer_type), (r.outcome, r.topic),
      (r.outcome, r.review_week))`);
  const rows = (res as unknown as { rows: GroupRow[] }).rows;

  const byConfidence = new Map<number, Counts>();
  const byType = new Map<string, Counts>(ANSWER_TYPES.map((t) => [t, zero()]));
  const byTopic = new Map<string, Counts>();
  const byWeek = new Map<string, Counts>();
  for (const r of rows) {
    const n = Number(r.n);
    if (r.grouped === 'confidence') {
      const c = Number(r.key);
      const counts = byConfidence.get(c) ?? zero();
      add(counts, r.outcome, n);
      byConfidence.set(c, counts);
    } else {
      const [map, key] =
        r.grouped === 'type'
          ? [byType, r.key ?? 'unknown']
          : r.grouped === 'topic'
            ? [byTopic, r.key ?? UNRECORDED_TOPIC]
            : [byWeek, r.key ?? ''];
      const counts = map.get(key) ?? zero();
      add(counts, r.outcome, n);
      map.set(key, counts);
    }
  }

  const totals = zero();
  const bands = CONFIDENCE_BANDS.map((band) => {
    const counts = zero();
    let confidenceSum = 0;
    for (const [c, at] of byConfidence) {
      if (c < band.min || c > band.max) continue;
      for (const k of Object.keys(counts) as (keyof Counts)[]) counts[k] += at[k];
      confidenceSum += c * at.reviewed;
    }
    for (const k of Object.keys(totals) as (keyof Counts)[]) totals[k] += counts[k];
    return {
      ...withShare(counts),
      band: band.id,
      label: band.label,
      min: band.min,
      max: band.max,
      meanConfidence: counts.reviewed ? confidenceSum / counts.reviewed : null,
    };
  });

  const calibration = await workspaceCalibration(ctx);
  // Bulk accept compares the figure reviewers see, so with the calibration on the threshold is stated in it too: the
  // map is monotone, so "shown ≥ t" is a cut on the stated confidence and the evidence counts stay exact.
  const { map } = calibration;
  const shown = (confidence: number) => (map ? recalibrate(map, confidence) : confidence);
  return {
    from: period.from,
    to: period.to,
    totals: withShare(totals),
    bands,
    byType: [...byType].flatMap(([type, counts]) =>
      (ANSWER_TYPES as readonly string[]).includes(type)
        ? [{ ...withShare(counts), answerType: type as AnswerType }]
        : [],
    ),
    byTopic: [...byTopic]
      .map(([topic, counts]) => ({ ...withShare(counts), topic, label: topicLabel(topic) }))
      .sort((a, b) => b.reviewed - a.reviewed || a.label.localeCompare(b.label)),
    weekly: [...byWeek]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([weekStart, counts]) => ({ ...withShare(counts), weekStart })),
    threshold: acceptThreshold(
      [...byConfidence].map(([confidence, c]) => ({
        confidence: shown(confidence),
        reviewed: c.reviewed,
        unchanged: c.unchanged,
      })),
    ),
    // All time, not the period's: the recalibration the question views apply does not depend on the page's period.
    calibration: presentCalibration(calibration),
  };
}

/** A topic key's label: the taxonomy's, or the words for 'other' and rows without a recorded topic. */
export function topicLabel(topic: string | null): string {
  const key = topic ?? UNRECORDED_TOPIC;
  return TOPIC_LABELS[key] ?? topicById(key)?.label ?? key;
}
