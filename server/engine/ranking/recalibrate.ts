/**
 * A workspace's own calibration of the engine's confidence, learnt from what its reviewers did (issue 36): of the
 * machine answers reviewed, which were kept unchanged. A monotone (isotonic) fit — pool-adjacent-violators over the
 * stated confidences — so a higher stated confidence never maps to a lower calibrated one, and which answer the
 * engine chose never depends on it: only the figure shown changes.
 */

/** One reviewed machine answer: the confidence the engine stated (0–100) and whether the reviewer kept it as is. */
export type Review = { confidence: number; kept: boolean };

/** The fitted map: from each block's lowest stated confidence upwards, the share kept in that block (0–1). */
export type Recalibration = { steps: Array<{ from: number; kept: number; reviews: number }> };

/**
 * Prior reviews mixed into each block, at the engine's own stated confidence: with few reviews in a block, its
 * calibrated figure stays near what the engine said instead of jumping to 0% or 100% on two answers.
 */
const PRIOR_WEIGHT = 2;

/** Fits the map on `reviews` (pool-adjacent-violators on the kept share, ordered by stated confidence). */
export function fitRecalibration(reviews: readonly Review[]): Recalibration {
  const byConfidence = new Map<number, { kept: number; n: number }>();
  for (const r of reviews) {
    const c = Math.max(0, Math.min(100, Math.round(r.confidence)));
    const cell = byConfidence.get(c) ?? { kept: 0, n: 0 };
    cell.kept += r.kept ? 1 : 0;
    cell.n += 1;
    byConfidence.set(c, cell);
  }
  type Block = { from: number; weight: number; sum: number; reviews: number };
  const blocks: Block[] = [];
  for (const [c, cell] of [...byConfidence.entries()].sort((a, b) => a[0] - b[0])) {
    blocks.push({
      from: c,
      weight: cell.n + PRIOR_WEIGHT,
      sum: cell.kept + PRIOR_WEIGHT * (c / 100),
      reviews: cell.n,
    });
    // Merge backwards while the order is violated: a block may not be kept less often than the one below it.
    for (;;) {
      const last = blocks[blocks.length - 1];
      const before = blocks[blocks.length - 2];
      if (!last || !before || before.sum / before.weight <= last.sum / last.weight) break;
      blocks.splice(blocks.length - 2, 2, {
        from: before.from,
        weight: before.weight + last.weight,
        sum: before.sum + last.sum,
        reviews: before.reviews + last.reviews,
      });
    }
  }
  return { steps: blocks.map((b) => ({ from: b.from, kept: b.sum / b.weight, reviews: b.reviews })) };
}

/**
 * The calibrated confidence (0–100) for a stated one: the share kept in the block it falls in; below the first
 * block, the first block's (a step function, constant between the confidences reviews were seen at).
 */
export function recalibrate(map: Recalibration, confidence: number): number {
  let kept = map.steps[0]?.kept;
  if (kept === undefined) return confidence;
  for (const step of map.steps) {
    if (step.from > confidence) break;
    kept = step.kept;
  }
  return Math.round(kept * 100);
}

/** Equal-width bins of ten points (the last holds 100), as the expected calibration error is usually reported. */
const ECE_BINS = 10;

/**
 * The expected calibration error, in points: over bins of stated confidence, the gap between the mean stated
 * confidence and the share kept, weighted by the bin's share of the reviews. 0 is perfectly calibrated.
 */
export function calibrationError(reviews: ReadonlyArray<Review>, stated: (r: Review) => number): number {
  if (reviews.length === 0) return 0;
  const bins = Array.from({ length: ECE_BINS }, () => ({ n: 0, confidence: 0, kept: 0 }));
  for (const r of reviews) {
    const c = Math.max(0, Math.min(100, stated(r)));
    const bin = bins[Math.min(ECE_BINS - 1, Math.floor(c / (100 / ECE_BINS)))];
    if (!bin) continue;
    bin.n += 1;
    bin.confidence += c;
    bin.kept += r.kept ? 100 : 0;
  }
  return bins.reduce(
    (sum, b) => (b.n === 0 ? sum : sum + (b.n / reviews.length) * Math.abs(b.confidence / b.n - b.kept / b.n)),
    0,
  );
}
