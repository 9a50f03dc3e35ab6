import { REVIEW_INTERVAL_DEFAULT_DAYS } from '../../../common/schemas/knowledge';

/** The review intervals offered in the entry form; an entry's own unusual interval is kept selectable. */
export const REVIEW_INTERVAL_CHOICES = [30, 90, 180, REVIEW_INTERVAL_DEFAULT_DAYS, 730, 1095] as const;

export function reviewIntervalOptions(current: number): number[] {
  return [...new Set<number>([...REVIEW_INTERVAL_CHOICES, current])].sort((a, b) => a - b);
}

const NAMED_INTERVALS: Record<number, string> = {
  180: 'Every 6 months',
  365: 'Every year',
  730: 'Every 2 years',
  1095: 'Every 3 years',
};

export function reviewIntervalLabel(days: number): string {
  return NAMED_INTERVALS[days] ?? `Every ${days} days`;
}
