import type { AccuracyBand, AccuracyView, OutcomeCounts } from '../../../common/schemas/accuracy';
import { formatNumber, formatPercent } from '../../lib/format';

/** One point of the reliability chart: a band's stated confidence against the share its reviewers kept unchanged. */
export interface ReliabilityPoint {
  band: AccuracyBand['band'];
  label: string;
  /** The band's mean stated confidence, 0–100. */
  confidence: number;
  /** Share kept unchanged, 0–100. */
  kept: number;
  reviewed: number;
  unchanged: number;
}

/**
 * The reliability chart's points, lowest band first. A band nobody reviewed has no share to plot and is left out
 * rather than drawn at 0%, which would read as "always rewritten".
 */
export function reliabilityPoints(bands: readonly AccuracyBand[]): ReliabilityPoint[] {
  const points: ReliabilityPoint[] = [];
  for (const band of bands) {
    if (band.reviewed === 0 || band.meanConfidence === null || band.keptShare === null) continue;
    points.push({
      band: band.band,
      label: band.label,
      confidence: Math.round(band.meanConfidence * 10) / 10,
      kept: Math.round(band.keptShare * 1000) / 10,
      reviewed: band.reviewed,
      unchanged: band.unchanged,
    });
  }
  return points.sort((a, b) => a.confidence - b.confidence);
}

/** One week of the trend line; `kept` is null for a week nobody reviewed in, which the line skips. */
export interface TrendPoint {
  weekStart: string;
  kept: number | null;
  reviewed: number;
}

export function trendPoints(weekly: AccuracyView['weekly']): TrendPoint[] {
  return [...weekly]
    .sort((a, b) => a.weekStart.localeCompare(b.weekStart))
    .map((week) => ({
      weekStart: week.weekStart,
      kept: week.keptShare === null ? null : Math.round(week.keptShare * 1000) / 10,
      reviewed: week.reviewed,
    }));
}

/** A share of 0–1 as the table shows it; a group nobody reviewed has none. */
export function formatShare(share: number | null): string {
  return share === null ? '–' : formatPercent(share * 100);
}

/** What the reliability chart says to a screen reader: one sentence per plotted band. */
export function reliabilitySummary(points: readonly ReliabilityPoint[]): string {
  if (points.length === 0) return 'Reliability chart: no reviewed machine answers in this period.';
  const parts = points.map(
    (p) =>
      `${p.label}: stated ${formatPercent(p.confidence)}, kept unchanged ${formatPercent(p.kept)} of ${formatNumber(p.reviewed)}`,
  );
  return `Reliability chart. ${parts.join('; ')}.`;
}

/** The outcome columns of every table on the page, in the order they read. */
export const OUTCOME_COLUMNS = [
  { key: 'reviewed', label: 'Reviewed' },
  { key: 'unchanged', label: 'Unchanged' },
  { key: 'edited', label: 'Edited' },
  { key: 'replaced', label: 'Replaced' },
  { key: 'notApplicable', label: 'Not applicable' },
  { key: 'regenerated', label: 'Regenerated' },
] as const satisfies ReadonlyArray<{ key: keyof OutcomeCounts; label: string }>;

/** One corner of the workspace's recalibration, drawn as steps: from `confidence` up, the figure shown is `kept`. */
export interface CalibrationPoint {
  confidence: number;
  /** The recalibrated confidence, 0–100. */
  kept: number;
}

/**
 * The recalibration's step line on the reliability chart: each step held flat until the next one starts, and the
 * last held to 100%, so the line reads as the figure a stated confidence is shown as. Empty without a curve.
 */
export function calibrationPoints(curve: AccuracyView['calibration']['curve']): CalibrationPoint[] {
  const steps = [...curve].sort((a, b) => a.confidence - b.confidence);
  const first = steps[0];
  // Below the first step the first step's figure holds (recalibrate's rule), so the line starts at 0%.
  const points: CalibrationPoint[] = first && first.confidence > 0 ? [{ confidence: 0, kept: first.calibrated }] : [];
  steps.forEach((step, i) => {
    const end = steps[i + 1]?.confidence ?? 100;
    points.push({ confidence: step.confidence, kept: step.calibrated });
    if (end > step.confidence) points.push({ confidence: end, kept: step.calibrated });
  });
  return points;
}

/** What the calibration switch says under it: why it is disabled, or what switching it does. */
export function calibrationSentence(calibration: AccuracyView['calibration']): string {
  if (!calibration.available) {
    return `Available once ${formatNumber(calibration.minReviews)} machine answers have been reviewed in this workspace (${formatNumber(calibration.reviews)} so far).`;
  }
  return calibration.enabled
    ? `Reviewers see the confidence recalibrated on this workspace's ${formatNumber(calibration.reviews)} reviews, beside what Verity said. Which answer is chosen never changes.`
    : `Recalibrated on this workspace's ${formatNumber(calibration.reviews)} reviews, shown on the chart; switch it on to show it to reviewers instead of Verity's own figure.`;
}
