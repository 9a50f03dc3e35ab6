import { z } from 'zod';
import { QUESTION_MAX_LENGTH } from '../constants';

export const ANSWER_TYPES = ['canonical', 'generated', 'draft', 'unknown'] as const;
export const AnswerType = z.enum(ANSWER_TYPES, {
  message: 'answerType must be canonical, generated, draft or unknown',
});
export type AnswerType = z.infer<typeof AnswerType>;

/** Where an answer came from: a library entry or a place in a document (PRODUCT §8 Source, extended). */
export const AnswerSource = z.object({
  type: z.enum(['library', 'document']),
  canonicalAnswerId: z.string().optional(),
  question: z.string().optional(),
  documentId: z.string().optional(),
  name: z.string().optional(),
  pageNumber: z.number().int().nullable().optional(),
  section: z.string().nullable().optional(),
  snippet: z.string().optional(),
  score: z.number(),
});
export type AnswerSource = z.infer<typeof AnswerSource>;

/** PRODUCT §7 Top match: a library entry close to the question, for the side panel. */
export const TopMatch = z.object({
  id: z.string(),
  question: z.string(),
  similarity: z.number().int(),
  lastUpdated: z.string(),
});
export type TopMatch = z.infer<typeof TopMatch>;

export const QuestionText = z
  .string({ message: 'Question is required' })
  .trim()
  .min(1, 'Question is required')
  .max(QUESTION_MAX_LENGTH, `Question must be at most ${QUESTION_MAX_LENGTH} characters`);

export const ExistingAnswer = z.object({
  answer: z.string().max(20_000),
  answerType: AnswerType,
  confidence: z.number().min(0).max(100),
  sources: z.array(AnswerSource).max(20).default([]),
});

export const AskBody = z.object({
  question: QuestionText,
  sessionId: z.uuid({ message: 'sessionId must be a session id' }).optional(),
  /** PRODUCT: saving a chat records an answer already shown, without answering again. */
  existingAnswer: ExistingAnswer.optional(),
});
export type AskBody = z.input<typeof AskBody>;

export const QA_BATCH_MAX = 100;
export const AskManyBody = z.object({
  questions: z
    .array(QuestionText, { message: 'questions must be a list' })
    .min(1, 'Ask at least one question')
    .max(QA_BATCH_MAX, `At most ${QA_BATCH_MAX} questions can be asked at once`),
  sessionId: z.uuid({ message: 'sessionId must be a session id' }).optional(),
});
export type AskManyBody = z.input<typeof AskManyBody>;

/** PRODUCT §8 Answer entry, as the Ask screen shows it. */
export const AnswerEntryView = z.object({
  id: z.string(),
  sessionId: z.string().nullable(),
  question: z.string(),
  answer: z.string(),
  answerType: AnswerType,
  confidence: z.number().int(),
  sources: z.array(AnswerSource),
  lastVerified: z.string().nullable(),
  createdAt: z.string(),
  /** Why only part of the question was read, when it was (longer than RETRIEVAL_MAX_CHARS). */
  note: z.string().nullable().optional(),
  matches: z.array(TopMatch),
});
export type AnswerEntryView = z.infer<typeof AnswerEntryView>;

export const CreateSessionBody = z.object({
  title: z.string().trim().min(1, 'Title is required').max(200, 'Title must be at most 200 characters'),
  customerName: z.string().trim().max(200, 'Customer name must be at most 200 characters').optional(),
});
export const UpdateSessionBody = CreateSessionBody.pick({ title: true });

export const SessionView = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string().nullable(),
  title: z.string(),
  customerName: z.string().nullable(),
  entryCount: z.number().int(),
  createdAt: z.string(),
});
export type SessionView = z.infer<typeof SessionView>;

export const HISTORY_PERIODS = ['today', '7d', '30d', 'all'] as const;
export const HistoryFilter = z.object({
  userId: z.uuid({ message: 'userId must be a user id' }).optional(),
  period: z.enum(HISTORY_PERIODS, { message: 'period must be today, 7d, 30d or all' }).default('all'),
  answerType: AnswerType.optional(),
  q: z.string().trim().max(200, 'Search text must be at most 200 characters').optional(),
});
export const HistoryQuery = HistoryFilter.extend({
  limit: z.coerce.number().int().min(1).max(1000).default(200),
  offset: z.coerce.number().int().min(0).default(0),
});
export type HistoryQuery = z.input<typeof HistoryQuery>;

/** PRODUCT §7 Chat entry (history). */
export const HistoryEntryView = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string().nullable(),
  sessionId: z.string().nullable(),
  question: z.string(),
  answer: z.string(),
  answerType: AnswerType,
  confidence: z.number().int(),
  sources: z.array(AnswerSource),
  createdAt: z.string(),
});
export type HistoryEntryView = z.infer<typeof HistoryEntryView>;

export const MatchesQuery = z.object({ q: QuestionText });

export const TASKS_PAGE_MAX = 200;
export const TasksQuery = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(TASKS_PAGE_MAX, `limit must be at most ${TASKS_PAGE_MAX}`)
    .default(50),
  offset: z.coerce
    .number({ message: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be 0 or more')
    .default(0),
});
export type TasksQuery = z.input<typeof TasksQuery>;

export const TASK_PRIORITIES = ['high', 'medium', 'low'] as const;
export const TaskPriority = z.enum(TASK_PRIORITIES);
export type TaskPriority = z.infer<typeof TaskPriority>;

/**
 * PRODUCT §7 Task: a question the workspace could not answer and the library still does not. Repeats of one question
 * are one task: its latest asking gives id, assignee and askedAt, and askCount says how often it was asked.
 */
export const TaskView = z.object({
  /** The latest asking's history entry. */
  id: z.string(),
  /** The question, as last asked. */
  title: z.string(),
  priority: TaskPriority,
  /** Who asked it last, and so who is waiting for the answer. */
  assignee: z.string().nullable(),
  askedAt: z.string(),
  askCount: z.number().int(),
});
export type TaskView = z.infer<typeof TaskView>;

/** GET /api/qa/sessions: how many of the caller's chats, newest first (Ask's recent chats ask for a few). */
export const SessionsQuery = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(1000, 'limit must be at most 1000')
    .default(1000),
});
export type SessionsQuery = z.input<typeof SessionsQuery>;

/** The bulk assessment a chat was started for (Ask's Bulk Import): the chat shows its progress, not its answers. */
export const SessionAssessment = z.object({
  id: z.string(),
  customerName: z.string(),
  fileName: z.string(),
  totalQuestions: z.number().int(),
});
export type SessionAssessment = z.infer<typeof SessionAssessment>;

/** A chat reopened on Ask: the session, its questions with their answers (oldest first), or its assessment. */
export const SessionDetailView = z.object({
  session: SessionView,
  entries: z.array(AnswerEntryView),
  assessment: SessionAssessment.nullable(),
});
export type SessionDetailView = z.infer<typeof SessionDetailView>;

/** POST /api/qa/tasks/:id/dismiss (id: the task's latest asking). */
export const TaskDismissed = z.object({ dismissed: z.literal(true) });
