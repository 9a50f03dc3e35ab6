import type { AnswerType, HISTORY_PERIODS, HistoryQuery } from '../../../common/schemas/qa';

export type HistoryPeriod = (typeof HISTORY_PERIODS)[number];

/** The Chat History filters as the page holds them; undefined means "all". */
export interface HistoryFilter {
  q: string;
  userId: string | undefined;
  period: HistoryPeriod;
  answerType: AnswerType | undefined;
}

export const DEFAULT_HISTORY_FILTER: HistoryFilter = { q: '', userId: undefined, period: 'all', answerType: undefined };

/** PRODUCT §7 Time Period labels (§12: today, 7 days, 30 days). */
export const PERIOD_LABELS: Record<HistoryPeriod, string> = {
  all: 'All time',
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
};

/** The filter as the API reads it, leaving out the "all" parts so the server applies its defaults. */
export function filterBody(filter: HistoryFilter): Omit<HistoryQuery, 'limit' | 'offset'> {
  return {
    period: filter.period,
    ...(filter.userId ? { userId: filter.userId } : {}),
    ...(filter.answerType ? { answerType: filter.answerType } : {}),
    ...(filter.q.trim() ? { q: filter.q.trim() } : {}),
  };
}

/** The start of a period, as the server computes it: today from UTC midnight, else a rolling window. */
export function periodStart(period: HistoryPeriod, now = new Date()): Date | null {
  const day = 24 * 3600_000;
  if (period === 'today') {
    const start = new Date(now);
    start.setUTCHours(0, 0, 0, 0);
    return start;
  }
  if (period === '7d') return new Date(now.getTime() - 7 * day);
  if (period === '30d') return new Date(now.getTime() - 30 * day);
  return null;
}
