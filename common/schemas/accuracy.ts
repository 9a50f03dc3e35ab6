import { z } from 'zod';

/**
 * What became of a machine answer once its review ended: approved as the machine wrote it, approved after a person
 * edited it, replaced by a person's own answer, marked not applicable, or sent back to the engine for a new one.
 */
export const REVIEW_OUTCOMES = ['unchanged', 'edited', 'replaced', 'not_applicable', 'regenerated'] as const;
export const ReviewOutcome = z.enum(REVIEW_OUTCOMES);
export type ReviewOutcome = z.infer<typeof ReviewOutcome>;

/** The confidence bands the page reports by, lowest first; each holds `min`..`max` inclusive. */
export const CONFIDENCE_BANDS = [
  { id: 'below-50', label: 'Below 50%', min: 0, max: 49 },
  { id: '50-69', label: '50–69%', min: 50, max: 69 },
  { id: '70-79', label: '70–79%', min: 70, max: 79 },
  { id: '80-89', label: '80–89%', min: 80, max: 89 },
  { id: '90-100', label: '90–100%', min: 90, max: 100 },
] as const;
export type ConfidenceBandId = (typeof CONFIDENCE_BANDS)[number]['id'];
const BAND_IDS = CONFIDENCE_BANDS.map((b) => b.id) as [ConfidenceBandId, ...ConfidenceBandId[]];

/** The longest period the page reports on. */
export const ACCURACY_PERIOD_MAX_DAYS = 731;
/** The threshold needs at least this many reviewed machine answers at or above it… */
export const THRESHOLD_MIN_REVIEWED = 50;
/** …of which at least this share were kept unchanged. */
export const THRESHOLD_KEPT_SHARE = 0.98;

const Day = z
  .string({ message: 'Dates must be days (YYYY-MM-DD)' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be days (YYYY-MM-DD)');

/**
 * A period of the current workspace (the X-Workspace-Id header, as every workspace route): `from`..`to` inclusive,
 * by default the last 90 days; `band` narrows the rows (export) to one confidence band.
 */
export const AccuracyQuery = z
  .object({
    from: Day.optional(),
    to: Day.optional(),
    band: z.enum(BAND_IDS, { message: `band must be one of ${BAND_IDS.join(', ')}` }).optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });
export type AccuracyQuery = z.input<typeof AccuracyQuery>;

/** Reviewed machine answers of one group (a band, an answer type, a topic, a week), by outcome. */
export const OutcomeCounts = z.object({
  reviewed: z.number().int(),
  unchanged: z.number().int(),
  edited: z.number().int(),
  replaced: z.number().int(),
  notApplicable: z.number().int(),
  regenerated: z.number().int(),
  /** unchanged / reviewed, 0–1; null when nothing was reviewed. */
  keptShare: z.number().nullable(),
});
export type OutcomeCounts = z.infer<typeof OutcomeCounts>;

export const AccuracyBand = OutcomeCounts.extend({
  band: z.enum(BAND_IDS),
  label: z.string(),
  min: z.number().int(),
  max: z.number().int(),
  /** The mean confidence the engine stated for the band's answers (the chart's x); null when empty. */
  meanConfidence: z.number().nullable(),
});
export type AccuracyBand = z.infer<typeof AccuracyBand>;

/**
 * The lowest confidence at which, over at least THRESHOLD_MIN_REVIEWED reviewed machine answers at or above it,
 * at least THRESHOLD_KEPT_SHARE were kept unchanged; null when the evidence does not reach that yet.
 */
export const AcceptThreshold = z.object({
  confidence: z.number().int(),
  /** Answers at or above it kept unchanged, of all reviewed at or above it, in the period. */
  kept: z.number().int(),
  reviewed: z.number().int(),
});
export type AcceptThreshold = z.infer<typeof AcceptThreshold>;

/** A workspace's own recalibration of the confidence needs at least this many reviewed machine answers. */
export const CALIBRATION_MIN_REVIEWS = 200;

/**
 * The workspace's own calibration (issue 36, item 4): whether it is switched on, how many machine answers the
 * workspace has had reviewed (all time, Needs Review excluded: it states no confidence), whether that is enough, and
 * the fitted curve — at each confidence where the fitted step changes, the confidence shown from there up. `active`
 * is what the question views use: switched on and enough reviews.
 */
export const AccuracyCalibration = z.object({
  enabled: z.boolean(),
  reviews: z.number().int(),
  minReviews: z.number().int(),
  available: z.boolean(),
  active: z.boolean(),
  /** Empty until available; lowest confidence first. */
  curve: z.array(z.object({ confidence: z.number().int(), calibrated: z.number().int(), reviews: z.number().int() })),
});
export type AccuracyCalibration = z.infer<typeof AccuracyCalibration>;

export const CalibrationBody = z.object(
  { enabled: z.boolean({ message: 'enabled must be true or false' }) },
  { message: 'Send {"enabled": true} or {"enabled": false}' },
);
export type CalibrationBody = z.infer<typeof CalibrationBody>;

export const AccuracyView = z.object({
  from: Day,
  to: Day,
  totals: OutcomeCounts,
  bands: z.array(AccuracyBand),
  byType: z.array(OutcomeCounts.extend({ answerType: z.enum(['canonical', 'generated', 'draft', 'unknown']) })),
  byTopic: z.array(OutcomeCounts.extend({ topic: z.string(), label: z.string() })),
  /** Weeks (Monday first) of the period with any review, oldest first. */
  weekly: z.array(OutcomeCounts.extend({ weekStart: Day })),
  /** In the confidence reviewers see: the recalibrated one while `calibration.active`. */
  threshold: AcceptThreshold.nullable(),
  calibration: AccuracyCalibration,
});
export type AccuracyView = z.infer<typeof AccuracyView>;
