import { describe, expect, it } from 'vitest';
import { reviewIntervalLabel, reviewIntervalOptions } from './review-interval';

describe('review intervals', () => {
  it("offers the usual choices and keeps an entry's own interval among them, in order", () => {
    expect(reviewIntervalOptions(365)).toEqual([30, 90, 180, 365, 730, 1095]);
    expect(reviewIntervalOptions(45)).toEqual([30, 45, 90, 180, 365, 730, 1095]);
  });

  it('says them plainly', () => {
    expect(reviewIntervalLabel(365)).toBe('Every year');
    expect(reviewIntervalLabel(180)).toBe('Every 6 months');
    expect(reviewIntervalLabel(45)).toBe('Every 45 days');
  });
});
