import { z } from 'zod';
import { AnswerType, QuestionText } from './qa';
import { BATCH_STATUSES, QUESTION_STATUSES, ReviewCounts, ReviewState } from './assessments';

/*
 * The MCP server's tools (server/modules/mcp): what each takes and gives back. The SDK turns these into the JSON
 * Schemas a client lists (tools/list) and validates every call's arguments against them before a tool runs.
 */

const WorkspaceArg = z
  .uuid({ message: 'workspaceId must be a workspace id (see list_workspaces)' })
  .optional()
  .describe("The workspace to work in (an id from list_workspaces). Default: the organization's first workspace.");

export const ListWorkspacesInput = z.object({});
export const ListWorkspacesOutput = z.object({
  workspaces: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      /** The one tools use when they are given no workspaceId. */
      isDefault: z.boolean(),
    }),
  ),
});
export type ListWorkspacesOutput = z.infer<typeof ListWorkspacesOutput>;

/** Where an answer came from, with the id and title to find it again in Verity. */
export const McpSource = z.object({
  type: z.enum(['library', 'document']),
  /** The library entry's or the document's id. */
  id: z.string().nullable(),
  /** The library entry's question, or the document's file name. */
  title: z.string(),
  pageNumber: z.number().int().nullable(),
  section: z.string().nullable(),
  snippet: z.string().nullable(),
  /** How well it matched the question, 0–1. */
  score: z.number().nullable(),
});
export type McpSource = z.infer<typeof McpSource>;

export const AskQuestionInput = z.object({
  question: QuestionText.describe('The security question to answer, as a customer would ask it.'),
  workspaceId: WorkspaceArg,
});
export const AskQuestionOutput = z.object({
  question: z.string(),
  answer: z.string(),
  /**
   * canonical: an approved library entry's answer; draft: an unapproved entry's; generated: written from the
   * documents; unknown: nothing covers it (needs review by a person).
   */
  answerType: AnswerType,
  /** 0–100. */
  confidence: z.number().int(),
  sources: z.array(McpSource),
  lastVerified: z.string().nullable(),
  /** Why only part of a long question was read, when it was. */
  note: z.string().nullable(),
  workspaceId: z.string(),
});
export type AskQuestionOutput = z.infer<typeof AskQuestionOutput>;

export const SEARCH_LIMIT_MAX = 50;
export const SearchLibraryInput = z.object({
  query: z
    .string({ message: 'query is required' })
    .trim()
    .min(1, 'query is required')
    .max(500, 'query must be at most 500 characters')
    .describe('Words to find in library questions and answers (every word must match, as a prefix).'),
  limit: z
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, `limit must be between 1 and ${SEARCH_LIMIT_MAX}`)
    .max(SEARCH_LIMIT_MAX, `limit must be between 1 and ${SEARCH_LIMIT_MAX}`)
    .default(10)
    .describe(`How many entries to return (1–${SEARCH_LIMIT_MAX}, default 10).`),
  workspaceId: WorkspaceArg,
});
export const SearchLibraryOutput = z.object({
  entries: z.array(
    z.object({
      id: z.string(),
      question: z.string(),
      answer: z.string(),
      status: z.enum(['approved', 'draft']),
      tags: z.array(z.string()),
      /** Full-text rank mapped to 0–1 (higher is closer); 0 when only part of a word matched. */
      score: z.number(),
      lastVerifiedAt: z.string().nullable(),
      updatedAt: z.string(),
    }),
  ),
  /** Entries matching the query, of which `entries` are the best `limit`. */
  total: z.number().int(),
  workspaceId: z.string(),
});
export type SearchLibraryOutput = z.infer<typeof SearchLibraryOutput>;

export const ListAssessmentsInput = z.object({ workspaceId: WorkspaceArg });
export const McpAssessment = z.object({
  id: z.string(),
  name: z.string(),
  customerName: z.string().nullable(),
  /** processing: the engine is still answering; completed; failed (see error). */
  status: z.enum(BATCH_STATUSES),
  error: z.string().nullable(),
  totalQuestions: z.number().int(),
  /** Questions the engine has answered so far (including those it could not answer: needsReview). */
  answeredQuestions: z.number().int(),
  failedQuestions: z.number().int(),
  /** Answered 'unknown': nothing in the workspace covers them, a person must answer. */
  needsReviewQuestions: z.number().int(),
  /** Questions in each review state. */
  reviewCounts: ReviewCounts,
  /** Approved or not applicable, out of all questions, 0–100. */
  percentReviewed: z.number().int(),
  dueOn: z.string().nullable(),
  overdue: z.boolean(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type McpAssessment = z.infer<typeof McpAssessment>;
export const ListAssessmentsOutput = z.object({ assessments: z.array(McpAssessment), workspaceId: z.string() });
export type ListAssessmentsOutput = z.infer<typeof ListAssessmentsOutput>;

export const ANSWERS_LIMIT_MAX = 500;
export const GetAssessmentAnswersInput = z.object({
  assessmentId: z
    .uuid({ message: 'assessmentId must be an assessment id (see list_assessments)' })
    .describe('The assessment (an id from list_assessments).'),
  state: ReviewState.optional().describe(
    'Only questions in this review state: needs_answer, drafted, in_review, approved or not_applicable.',
  ),
  limit: z
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, `limit must be between 1 and ${ANSWERS_LIMIT_MAX}`)
    .max(ANSWERS_LIMIT_MAX, `limit must be between 1 and ${ANSWERS_LIMIT_MAX}`)
    .default(100)
    .describe(`How many questions to return (1–${ANSWERS_LIMIT_MAX}, default 100), in questionnaire order.`),
  offset: z
    .number({ message: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be 0 or more')
    .default(0)
    .describe('How many matching questions to skip (for the next page).'),
  workspaceId: WorkspaceArg,
});
export const GetAssessmentAnswersOutput = z.object({
  assessment: McpAssessment,
  /** Questions matching the state filter; `questions` holds `limit` of them from `offset`. */
  total: z.number().int(),
  offset: z.number().int(),
  questions: z.array(
    z.object({
      id: z.string(),
      /** Its number in the questionnaire (1 for the first), as the review screen shows it (#1). */
      number: z.number().int(),
      controlId: z.string().nullable(),
      section: z.string().nullable(),
      question: z.string(),
      answer: z.string().nullable(),
      answerType: AnswerType.nullable(),
      confidence: z.number().int().nullable(),
      /** The engine's progress on it: pending, processing, completed or failed. */
      status: z.enum(QUESTION_STATUSES),
      reviewState: ReviewState,
      /** A person wrote the answer (else the engine did). */
      edited: z.boolean(),
      sources: z.array(McpSource),
    }),
  ),
  workspaceId: z.string(),
});
export type GetAssessmentAnswersOutput = z.infer<typeof GetAssessmentAnswersOutput>;
