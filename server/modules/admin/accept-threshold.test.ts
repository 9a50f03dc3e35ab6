import { describe, expect, it } from 'vitest';
import { acceptThreshold } from './accept-threshold';

const tally = (confidence: number, reviewed: number, unchanged: number) => ({ confidence, reviewed, unchanged });

describe('the bulk-accept threshold', () => {
  it('is null without enough reviewed answers, however well kept', () => {
    expect(acceptThreshold([])).toBeNull();
    expect(acceptThreshold([tally(95, 49, 49)])).toBeNull();
  });

  it('is the lowest confidence whose answers at or above it reach the count and the kept share', () => {
    // 95: 30/30; ≥ 90: 60 of 60; ≥ 85: 110, 108 kept (98.2%); ≥ 80: 160, 148 kept (92.5%).
    expect(acceptThreshold([tally(95, 30, 30), tally(90, 30, 30), tally(85, 50, 48), tally(80, 50, 40)])).toEqual({
      confidence: 85,
      kept: 108,
      reviewed: 110,
    });
  });

  it('counts exactly 98% as enough (49 of 50)', () => {
    expect(acceptThreshold([tally(92, 50, 49)])).toEqual({ confidence: 92, kept: 49, reviewed: 50 });
    expect(acceptThreshold([tally(92, 50, 48)])).toBeNull();
  });

  it('scans every distinct confidence: a lower one may qualify after a higher one failed', () => {
    // ≥ 99: 50, 45 kept (fails); ≥ 70: 1050, 1045 kept (99.5%).
    expect(acceptThreshold([tally(99, 50, 45), tally(70, 1000, 1000)])).toEqual({
      confidence: 70,
      kept: 1045,
      reviewed: 1050,
    });
  });

  it('adds tallies of the same confidence and ignores their order', () => {
    expect(acceptThreshold([tally(80, 20, 20), tally(90, 10, 10), tally(80, 20, 20)])).toEqual({
      confidence: 80,
      kept: 50,
      reviewed: 50,
    });
  });
});
