import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { assessmentBatches, qaEntries } from '../../db/schema';
import type { UserCtx } from '../../context';
import { specificTopics, topicById, topicsOf } from '../../engine/text/taxonomy';
import { libraryFreshness } from '../knowledge/freshness';
import { ANSWER_TYPES, type AnswerType } from '../../../common/schemas/qa';
import { AUTOMATION_CONFIDENCE_MIN, type AnalyticsView, type UnansweredGroup } from '../../../common/schemas/admin';

const DAY_MS = 24 * 3600_000;
/** Unanswered questions read for grouping: the newest ones; enough for a clear picture, bounded in cost. */
const UNANSWERED_SAMPLE = 5000;
const UNANSWERED_GROUPS = 8;
const EXAMPLES_PER_GROUP = 3;

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Answered from the library or generated, confidently enough that nobody had to step in. */
const automated = sql`${qaEntries.answerType} in ('canonical', 'generated') and ${qaEntries.confidence} >= ${AUTOMATION_CONFIDENCE_MIN}`;

/** Bulk assessments of the organization (every workspace) completed in the period. */
async function countCompletedAssessments(ctx: UserCtx, since: Date): Promise<number> {
  const [row] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(assessmentBatches)
    .where(
      and(
        eq(assessmentBatches.organizationId, ctx.organizationId),
        eq(assessmentBatches.status, 'completed'),
        gte(assessmentBatches.completedAt, since),
      ),
    );
  return row?.n ?? 0;
}

/** Case, spacing and punctuation folded, so the same question asked twice groups together. */
function normalizeQuestion(question: string): string {
  return question
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Groups questions that got no answer by the security topics they ask about (the answer engine's taxonomy): the
 * gaps in the library worth filling first. A question naming no known topic groups with the same question asked
 * again. Input newest first.
 */
export function groupUnanswered(questions: readonly string[], limit = UNANSWERED_GROUPS): UnansweredGroup[] {
  const groups = new Map<string, UnansweredGroup>();
  const add = (key: string, kind: UnansweredGroup['kind'], label: string, question: string) => {
    const group = groups.get(key) ?? { key, kind, label, count: 0, examples: [] };
    group.count += 1;
    if (group.examples.length < EXAMPLES_PER_GROUP && !group.examples.includes(question)) group.examples.push(question);
    groups.set(key, group);
  };
  for (const question of questions) {
    const topics = specificTopics(topicsOf(question));
    if (topics.length > 0) {
      for (const id of topics) add(`topic:${id}`, 'topic', topicById(id)?.label ?? id, question);
      continue;
    }
    const normalized = normalizeQuestion(question);
    if (normalized) add(`question:${normalized}`, 'question', question, question);
  }
  return [...groups.values()]
    .sort(
      (a, b) =>
        b.count - a.count || (a.kind === b.kind ? 0 : a.kind === 'topic' ? -1 : 1) || a.label.localeCompare(b.label),
    )
    .slice(0, limit)
    .map((g) => ({ ...g, key: g.key.slice(g.key.indexOf(':') + 1) }));
}

/**
 * The Analytics tab's figures over the organization's questions (every workspace) of the last `days` UTC calendar
 * days, today included: questions per day, answer-type mix, automation rate, completed assessments and the topics
 * that most often went unanswered; plus the library's freshness now.
 */
export async function organizationAnalytics(ctx: UserCtx, days: number, now = new Date()): Promise<AnalyticsView> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * DAY_MS);
  const where = and(eq(qaEntries.organizationId, ctx.organizationId), gte(qaEntries.createdAt, since));

  const day = sql<string>`to_char(${qaEntries.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const perDay = await ctx.db
    .select({
      day,
      questions: sql<number>`cast(count(*) as int)`,
      automated: sql<number>`cast(count(*) filter (where ${automated}) as int)`,
    })
    .from(qaEntries)
    .where(where)
    .groupBy(day);
  const byType = await ctx.db
    .select({ type: qaEntries.answerType, n: sql<number>`cast(count(*) as int)` })
    .from(qaEntries)
    .where(where)
    .groupBy(qaEntries.answerType);
  const [totals] = await ctx.db
    .select({
      questions: sql<number>`cast(count(*) as int)`,
      automated: sql<number>`cast(count(*) filter (where ${automated}) as int)`,
      averageConfidence: sql<number | null>`avg(${qaEntries.confidence})::float8`,
      activeUsers: sql<number>`cast(count(distinct ${qaEntries.userId}) as int)`,
    })
    .from(qaEntries)
    .where(where);
  const unanswered = await ctx.db
    .select({ question: qaEntries.question })
    .from(qaEntries)
    .where(and(where, eq(qaEntries.answerType, 'unknown')))
    .orderBy(desc(qaEntries.createdAt), desc(qaEntries.id))
    .limit(UNANSWERED_SAMPLE);

  const counted = new Map(perDay.map((d) => [d.day, d]));
  const questionsPerDay = Array.from({ length: days }, (_, i) => {
    const date = isoDay(new Date(since.getTime() + i * DAY_MS));
    const found = counted.get(date);
    return { date, questions: Number(found?.questions ?? 0), automated: Number(found?.automated ?? 0) };
  });
  const answerTypes = Object.fromEntries(ANSWER_TYPES.map((t) => [t, 0])) as Record<AnswerType, number>;
  for (const row of byType) {
    // Stored types outside the four (none today) would be invisible in the mix; count them as needing review.
    const type = (ANSWER_TYPES as readonly string[]).includes(row.type) ? (row.type as AnswerType) : 'unknown';
    answerTypes[type] += Number(row.n);
  }
  const questionsAsked = Number(totals?.questions ?? 0);
  const automatedAnswers = Number(totals?.automated ?? 0);
  const average = totals?.averageConfidence;
  return {
    days,
    from: isoDay(since),
    to: isoDay(new Date(today)),
    questionsAsked,
    automatedAnswers,
    automationRate: questionsAsked > 0 ? Math.round((automatedAnswers / questionsAsked) * 1000) / 10 : null,
    averageConfidence: average === null || average === undefined ? null : Math.round(Number(average) * 10) / 10,
    activeUsers: Number(totals?.activeUsers ?? 0),
    assessmentsCompleted: await countCompletedAssessments(ctx, since),
    questionsPerDay,
    answerTypes,
    topUnanswered: groupUnanswered(unanswered.map((u) => u.question)),
    libraryFreshness: await libraryFreshness(ctx),
  };
}
