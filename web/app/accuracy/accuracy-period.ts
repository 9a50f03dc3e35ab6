import {
  ACCURACY_PERIOD_MAX_DAYS,
  THRESHOLD_KEPT_SHARE,
  THRESHOLD_MIN_REVIEWED,
  type AcceptThreshold,
} from '../../../common/schemas/accuracy';
import { formatNumber } from '../../lib/format';

/** The periods offered by name; a chosen from–to is the other kind. */
export const RECENT_PERIODS = [30, 90, 365] as const;
export type RecentDays = (typeof RECENT_PERIODS)[number];

export type AccuracyPeriod = { kind: 'recent'; days: RecentDays } | { kind: 'range'; from: string; to: string };

/** The period the bulk-accept offer quotes, and the page's first choice. */
export const OFFER_PERIOD: AccuracyPeriod = { kind: 'recent', days: 90 };

/** The query the API takes for a period: both ends as UTC days, inclusive. */
export interface AccuracyParams {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `date` as a UTC day (YYYY-MM-DD): the server counts reviews by UTC day. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

/** A day string that names a real calendar day ('2025-02-30' does not). */
function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && utcDay(parsed) === value;
}

/**
 * A period as the API's from/to, or a sentence saying why it cannot be asked for (a range with a missing or reversed
 * end, or longer than the server allows). "Last N days" ends today and counts today as one of the N.
 */
export function accuracyParams(
  period: AccuracyPeriod,
  now: Date = new Date(),
): { params: AccuracyParams; error: null } | { params: null; error: string } {
  if (period.kind === 'recent') {
    const to = utcDay(now);
    const from = utcDay(new Date(now.getTime() - (period.days - 1) * DAY_MS));
    return { params: { from, to }, error: null };
  }
  const { from, to } = period;
  if (!isDay(from) || !isDay(to)) return { params: null, error: 'Choose both the first and the last day.' };
  if (from > to) return { params: null, error: 'The first day must not be after the last day.' };
  if (dayNumber(to) - dayNumber(from) + 1 > ACCURACY_PERIOD_MAX_DAYS) {
    return { params: null, error: `Choose at most ${formatNumber(ACCURACY_PERIOD_MAX_DAYS)} days (two years).` };
  }
  return { params: { from, to }, error: null };
}

/** The query string of a period (and, for the export, one band). */
export function accuracySearch(params: AccuracyParams, band?: string): string {
  const search = new URLSearchParams({ from: params.from, to: params.to });
  if (band) search.set('band', band);
  return search.toString();
}

/** How a period reads in a sentence: 'in the last 90 days', 'from 2025-01-01 to 2025-03-31'. */
export function periodPhrase(period: AccuracyPeriod): string {
  return period.kind === 'recent' ? `in the last ${String(period.days)} days` : `from ${period.from} to ${period.to}`;
}

const keptShare = `${String(Math.round(THRESHOLD_KEPT_SHARE * 100))}%`;

/** The page's line about the threshold: its evidence, or why there is none yet. */
export function thresholdSentence(threshold: AcceptThreshold | null): string {
  if (!threshold) {
    return `Not enough reviews yet: a threshold needs at least ${String(THRESHOLD_MIN_REVIEWED)} reviewed answers at or above it, ${keptShare} of them kept unchanged.`;
  }
  return `Answers at or above ${String(threshold.confidence)}% were kept unchanged ${formatNumber(threshold.kept)} of ${formatNumber(threshold.reviewed)} times.`;
}

/** The bulk-accept offer: the threshold with its evidence over the offer's period, or why there is none yet. */
export function acceptOfferSentence(threshold: AcceptThreshold | null, period: AccuracyPeriod = OFFER_PERIOD): string {
  if (!threshold) {
    return `Not enough evidence yet to suggest a threshold: it needs at least ${String(THRESHOLD_MIN_REVIEWED)} reviewed machine answers at or above it ${periodPhrase(period)}, ${keptShare} of them kept unchanged.`;
  }
  return `Accept ≥ ${String(threshold.confidence)}%: ${formatNumber(threshold.kept)} of ${formatNumber(threshold.reviewed)} answers at or above it were kept unchanged ${periodPhrase(period)}.`;
}
