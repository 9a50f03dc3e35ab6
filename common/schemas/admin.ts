import { z } from 'zod';
import type { ANSWER_TYPES } from './qa';

/** PRODUCT §10 Admin user row. */
export const AdminUserRow = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.string(),
  lastActive: z.string().nullable(),
});
export type AdminUserRow = z.infer<typeof AdminUserRow>;

/** PRODUCT §10 Audit log row, with the acting user's name and the change's details. */
export const AuditLogRow = z.object({
  id: z.string(),
  action: z.string(),
  userId: z.string().nullable(),
  username: z.string().nullable(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type AuditLogRow = z.infer<typeof AuditLogRow>;

export const AuditLogQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, 'limit must be between 1 and 500')
    .max(500, 'limit must be between 1 and 500')
    .default(100),
  offset: z.coerce.number().int().min(0, 'offset must be 0 or more').default(0),
  /** One action, as stored (`user_role_changed`). */
  action: z
    .string()
    .trim()
    .max(100, 'action must be at most 100 characters')
    .regex(/^[a-z0-9_]+$/, 'action must be an action name such as user_role_changed')
    .optional(),
  /** The acting user; `system` for rows no user caused. */
  userId: z.union([z.uuid(), z.literal('system')], { message: "userId must be a user id or 'system'" }).optional(),
});
export type AuditLogQuery = z.input<typeof AuditLogQuery>;

/** The choices of the audit log's filters: every action and every acting user the organization's trail holds. */
export const AuditLogFilters = z.object({
  actions: z.array(z.string()),
  users: z.array(z.object({ id: z.string(), username: z.string().nullable() })),
  /** Some rows were written by no user (shown as 'System'). */
  hasSystem: z.boolean(),
});
export type AuditLogFilters = z.infer<typeof AuditLogFilters>;

/** Automation rate counts library and generated answers at or above this confidence (PRODUCT §8's "strong" level). */
export const AUTOMATION_CONFIDENCE_MIN = 80;
export const ANALYTICS_DAYS_MAX = 365;

export const AnalyticsQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1, `days must be between 1 and ${ANALYTICS_DAYS_MAX}`)
    .max(ANALYTICS_DAYS_MAX, `days must be between 1 and ${ANALYTICS_DAYS_MAX}`)
    .default(30),
});
export type AnalyticsQuery = z.input<typeof AnalyticsQuery>;

export const UnansweredGroup = z.object({
  /** A taxonomy topic id, or the normalized question when no topic was recognised. */
  key: z.string(),
  kind: z.enum(['topic', 'question']),
  label: z.string(),
  count: z.number().int(),
  /** A few of the questions in the group, newest first. */
  examples: z.array(z.string()),
});
export type UnansweredGroup = z.infer<typeof UnansweredGroup>;

/** PRODUCT §5 freshness of the organization's library (every workspace), as it stands now. */
export const LibraryFreshness = z.object({
  approvedEntries: z.number().int(),
  /** Approved entries past their review interval. */
  needsReverification: z.number().int(),
  /** Approved entries within their review interval, in percent with one decimal; null without approved entries. */
  freshRate: z.number().nullable(),
});
export type LibraryFreshness = z.infer<typeof LibraryFreshness>;

/** Usage figures of the whole organization over the last `days` days (UTC calendar days, today included). */
export const AnalyticsView = z.object({
  days: z.number().int(),
  /** First and last day covered, YYYY-MM-DD. */
  from: z.string(),
  to: z.string(),
  questionsAsked: z.number().int(),
  /** Answered from the library or generated with confidence ≥ AUTOMATION_CONFIDENCE_MIN. */
  automatedAnswers: z.number().int(),
  /** automatedAnswers / questionsAsked in percent, one decimal; null when nothing was asked. */
  automationRate: z.number().nullable(),
  averageConfidence: z.number().nullable(),
  /** People who asked at least one question. */
  activeUsers: z.number().int(),
  assessmentsCompleted: z.number().int(),
  questionsPerDay: z.array(z.object({ date: z.string(), questions: z.number().int(), automated: z.number().int() })),
  /** Questions per answer type; every type of ANSWER_TYPES is present. */
  answerTypes: z.object({
    canonical: z.number().int(),
    draft: z.number().int(),
    generated: z.number().int(),
    unknown: z.number().int(),
  }) satisfies z.ZodType<Record<(typeof ANSWER_TYPES)[number], number>>,
  topUnanswered: z.array(UnansweredGroup),
  /** Not a per-day figure: the library's state now. */
  libraryFreshness: LibraryFreshness,
});
export type AnalyticsView = z.infer<typeof AnalyticsView>;

/** How this Verity answers: with retrieval by meaning (an embedding model) or by keywords only. */
export const EngineStatusView = z.object({
  semantic: z.boolean(),
  provider: z.enum(['local', 'openai', 'none']),
  /** The embedding model in use, when there is one. */
  model: z.string().nullable(),
  /** When the model in use is not the one Verity meant to use: what happened and how to fix it. */
  notice: z.string().nullable(),
});
export type EngineStatusView = z.infer<typeof EngineStatusView>;
