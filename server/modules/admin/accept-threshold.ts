import { THRESHOLD_KEPT_SHARE, THRESHOLD_MIN_REVIEWED, type AcceptThreshold } from '../../../common/schemas/accuracy';

/** Reviewed machine answers stated at one confidence, and how many of them were kept unchanged. */
export type ConfidenceTally = { confidence: number; reviewed: number; unchanged: number };

/**
 * The lowest confidence c such that the reviewed machine answers at or above c number at least `minReviewed` and at
 * least `keptShare` of them were kept unchanged; null when no confidence qualifies. One scan from the highest
 * confidence down, adding each confidence's answers to the running totals "at or above c": every distinct
 * confidence is a candidate, and the last (lowest) that qualifies wins — a lower one qualifying after a higher one
 * failed is still a true statement about the answers at or above it, which is what the bulk-accept offer says.
 */
export function acceptThreshold(
  tallies: readonly ConfidenceTally[],
  minReviewed = THRESHOLD_MIN_REVIEWED,
  keptShare = THRESHOLD_KEPT_SHARE,
): AcceptThreshold | null {
  const byConfidence = new Map<number, { reviewed: number; unchanged: number }>();
  for (const t of tallies) {
    const at = byConfidence.get(t.confidence) ?? { reviewed: 0, unchanged: 0 };
    at.reviewed += t.reviewed;
    at.unchanged += t.unchanged;
    byConfidence.set(t.confidence, at);
  }
  let reviewed = 0;
  let kept = 0;
  let best: AcceptThreshold | null = null;
  for (const confidence of [...byConfidence.keys()].sort((a, b) => b - a)) {
    const at = byConfidence.get(confidence) ?? { reviewed: 0, unchanged: 0 };
    reviewed += at.reviewed;
    kept += at.unchanged;
    // Integer comparison (kept ≥ share × reviewed), so 49 of 50 meets 98% without a rounding doubt.
    if (reviewed >= minReviewed && kept * 1000 >= Math.round(keptShare * 1000) * reviewed) {
      best = { confidence, kept, reviewed };
    }
  }
  return best;
}
