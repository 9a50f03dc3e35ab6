import { describe, expect, it } from 'vitest';
import { calibrationError, fitRecalibration, recalibrate, type Review } from './recalibrate';

/** A deterministic stream of numbers in [0, 1) (mulberry32), so every run sees the same reviews. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Reviews of an engine that overstates: an answer stated at c% is kept (c − 20)% of the time. */
function overstated(n: number, seed: number): Review[] {
  const next = random(seed);
  return Array.from({ length: n }, () => {
    const confidence = 50 + Math.floor(next() * 51);
    return { confidence, kept: next() * 100 < confidence - 20 };
  });
}

describe('a workspace recalibration of the confidence', () => {
  it('never maps a higher stated confidence to a lower calibrated one, whatever the reviews', () => {
    for (let seed = 1; seed <= 50; seed += 1) {
      const next = random(seed);
      const reviews = Array.from({ length: 1 + Math.floor(next() * 300) }, () => ({
        confidence: Math.floor(next() * 101),
        kept: next() < 0.5,
      }));
      const map = fitRecalibration(reviews);
      for (let i = 1; i < map.steps.length; i += 1) {
        expect(map.steps[i]?.kept ?? 0).toBeGreaterThanOrEqual(map.steps[i - 1]?.kept ?? 0);
      }
      let previous = -1;
      for (let c = 0; c <= 100; c += 1) {
        const calibrated = recalibrate(map, c);
        expect(calibrated).toBeGreaterThanOrEqual(previous);
        previous = calibrated;
      }
    }
  });

  it('brings an overstated confidence down to how often answers were kept', () => {
    const map = fitRecalibration(overstated(2000, 7));
    expect(recalibrate(map, 90)).toBeGreaterThan(60);
    expect(recalibrate(map, 90)).toBeLessThan(80);
  });

  it('is better calibrated than the stated confidence on reviews it never saw', () => {
    const map = fitRecalibration(overstated(1000, 11));
    const unseen = overstated(1000, 12);
    const stated = calibrationError(unseen, (r) => r.confidence);
    const calibrated = calibrationError(unseen, (r) => recalibrate(map, r.confidence));
    expect(stated).toBeGreaterThan(15);
    expect(calibrated).toBeLessThan(5);
  });

  it('keeps the stated figure without reviews, and stays near it on a handful', () => {
    expect(recalibrate(fitRecalibration([]), 87)).toBe(87);
    // Two answers at 90% both rewritten: evidence, not proof that 90% means 0%.
    expect(
      recalibrate(
        fitRecalibration([
          { confidence: 90, kept: false },
          { confidence: 90, kept: false },
        ]),
        90,
      ),
    ).toBe(45);
  });
});

describe('the expected calibration error', () => {
  it('is 0 when each bin is kept as often as it says, and the gap otherwise', () => {
    const exact = [
      ...Array.from({ length: 9 }, () => ({ confidence: 90, kept: true })),
      { confidence: 90, kept: false },
    ];
    expect(calibrationError(exact, (r) => r.confidence)).toBeCloseTo(0);
    const never = [{ confidence: 80, kept: false }];
    expect(calibrationError(never, (r) => r.confidence)).toBeCloseTo(80);
  });
});
