import { describe, expect, it } from 'vitest';
import type { AccuracyBand, OutcomeCounts } from '../../../common/schemas/accuracy';
import {
  calibrationPoints,
  calibrationSentence,
  formatShare,
  reliabilityPoints,
  reliabilitySummary,
  trendPoints,
} from './accuracy-chart-data';

function counts(reviewed: number, unchanged: number): OutcomeCounts {
  return {
    reviewed,
    unchanged,
    edited: reviewed - unchanged,
    replaced: 0,
    notApplicable: 0,
    regenerated: 0,
    keptShare: reviewed === 0 ? null : unchanged / reviewed,
  };
}

function band(id: AccuracyBand['band'], label: string, reviewed: number, unchanged: number, mean: number | null) {
  const [min, max] = id === 'below-50' ? [0, 49] : id.split('-').map(Number);
  return { ...counts(reviewed, unchanged), band: id, label, min: min ?? 0, max: max ?? 100, meanConfidence: mean };
}

describe('reliability points', () => {
  it('plot each reviewed band at its mean stated confidence against the share kept unchanged, lowest first', () => {
    const points = reliabilityPoints([
      band('90-100', '90–100%', 3, 2, 94.44),
      band('below-50', 'Below 50%', 0, 0, null),
      band('70-79', '70–79%', 8, 6, 74),
    ]);
    expect(points).toEqual([
      { band: '70-79', label: '70–79%', confidence: 74, kept: 75, reviewed: 8, unchanged: 6 },
      { band: '90-100', label: '90–100%', confidence: 94.4, kept: 66.7, reviewed: 3, unchanged: 2 },
    ]);
  });

  it('leave out a band nobody reviewed instead of drawing it at 0%', () => {
    expect(reliabilityPoints([band('50-69', '50–69%', 0, 0, 60)])).toEqual([]);
    expect(reliabilitySummary([])).toMatch(/no reviewed machine answers/);
  });

  it('describe every point for a screen reader', () => {
    const summary = reliabilitySummary(reliabilityPoints([band('80-89', '80–89%', 4, 3, 85)]));
    expect(summary).toBe('Reliability chart. 80–89%: stated 85%, kept unchanged 75% of 4.');
  });
});

describe('weekly trend', () => {
  it('runs oldest first in percent, leaving a week without reviews empty', () => {
    expect(
      trendPoints([
        { ...counts(4, 4), weekStart: '2026-03-09' },
        { ...counts(0, 0), weekStart: '2026-03-16' },
        { ...counts(3, 1), weekStart: '2026-03-02' },
      ]),
    ).toEqual([
      { weekStart: '2026-03-02', kept: 33.3, reviewed: 3 },
      { weekStart: '2026-03-09', kept: 100, reviewed: 4 },
      { weekStart: '2026-03-16', kept: null, reviewed: 0 },
    ]);
  });
});

describe('shares', () => {
  it('read as whole percents, a dash when nothing was reviewed', () => {
    expect(formatShare(212 / 215)).toBe('99%');
    expect(formatShare(0)).toBe('0%');
    expect(formatShare(null)).toBe('–');
  });
});

describe('calibrationPoints', () => {
  it('draws each step flat to the next, from 0% to 100%', () => {
    expect(
      calibrationPoints([
        { confidence: 80, calibrated: 75, reviews: 40 },
        { confidence: 50, calibrated: 60, reviews: 100 },
        { confidence: 95, calibrated: 90, reviews: 60 },
      ]),
    ).toEqual([
      { confidence: 0, kept: 60 },
      { confidence: 50, kept: 60 },
      { confidence: 80, kept: 60 },
      { confidence: 80, kept: 75 },
      { confidence: 95, kept: 75 },
      { confidence: 95, kept: 90 },
      { confidence: 100, kept: 90 },
    ]);
  });

  it('draws nothing without a curve, and a step at 100% as a point', () => {
    expect(calibrationPoints([])).toEqual([]);
    expect(calibrationPoints([{ confidence: 100, calibrated: 97, reviews: 200 }])).toEqual([
      { confidence: 0, kept: 97 },
      { confidence: 100, kept: 97 },
    ]);
  });
});

describe('calibrationSentence', () => {
  const base = { enabled: false, reviews: 120, minReviews: 200, available: false, active: false, curve: [] };
  it('says how many reviews it still needs', () => {
    expect(calibrationSentence(base)).toBe(
      'Available once 200 machine answers have been reviewed in this workspace (120 so far).',
    );
  });
  it('says what switching it does, and what it never changes', () => {
    expect(calibrationSentence({ ...base, reviews: 250, available: true })).toMatch(/shown on the chart; switch it on/);
    expect(calibrationSentence({ ...base, reviews: 250, available: true, enabled: true, active: true })).toMatch(
      /Which answer is chosen never changes/,
    );
  });
});
