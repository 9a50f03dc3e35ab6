import { z } from 'zod';
import {
  ANSWER_MAX_LENGTH,
  IMPORT_MAX_ENTRIES,
  LIBRARY_ANSWER_MIN,
  LIBRARY_PAGE_DEFAULT,
  LIBRARY_PAGE_MAX,
  LIBRARY_QUESTION_MIN,
  QUESTION_MAX_LENGTH,
  SOURCE_MAX_LENGTH,
  TAG_MAX_LENGTH,
  TAGS_MAX,
} from '../constants';

export const ANSWER_STATUSES = ['approved', 'draft', 'archived'] as const;
export const AnswerStatus = z.enum(ANSWER_STATUSES, { message: 'Status must be approved, draft or archived' });
export type AnswerStatus = z.infer<typeof AnswerStatus>;

export const Person = z.object({ id: z.string(), username: z.string() });
export type Person = z.infer<typeof Person>;

/** PRODUCT §5: an approved entry is trusted for this many days after it was last verified, then re-verified. */
export const REVIEW_INTERVAL_DEFAULT_DAYS = 365;
export const REVIEW_INTERVAL_MIN_DAYS = 30;
export const REVIEW_INTERVAL_MAX_DAYS = 1095;
const REVIEW_INTERVAL_MESSAGE = `The review interval must be a whole number of days from ${REVIEW_INTERVAL_MIN_DAYS} to ${REVIEW_INTERVAL_MAX_DAYS.toLocaleString('en-US')}`;
export const ReviewIntervalDays = z
  .number({ message: REVIEW_INTERVAL_MESSAGE })
  .int(REVIEW_INTERVAL_MESSAGE)
  .min(REVIEW_INTERVAL_MIN_DAYS, REVIEW_INTERVAL_MESSAGE)
  .max(REVIEW_INTERVAL_MAX_DAYS, REVIEW_INTERVAL_MESSAGE);

/** PRODUCT §5 CanonicalAnswer, plus who owns it and when it was last confirmed true. */
export const CanonicalAnswerView = z.object({
  id: z.string(),
  workspaceId: z.string(),
  question: z.string(),
  answer: z.string(),
  tags: z.array(z.string()),
  status: AnswerStatus,
  /** Null for entries made in the library form; the UI shows LIBRARY_DISPLAY_CONFIDENCE then. */
  confidence: z.number().int().nullable(),
  source: z.string().nullable(),
  owner: Person.nullable(),
  createdBy: Person.nullable(),
  lastVerifiedAt: z.string().nullable(),
  lastVerifiedBy: Person.nullable(),
  /** Days the entry stays trusted after it was last verified (or created, if never). */
  reviewIntervalDays: z.number().int(),
  /** When an approved entry is due for re-verification; null for drafts and archived entries. */
  verifyBy: z.string().nullable(),
  /** An approved entry past its review interval: its owner should confirm it is still true. */
  needsReverification: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CanonicalAnswerView = z.infer<typeof CanonicalAnswerView>;

const questionText = z
  .string({ message: 'Question is required' })
  .trim()
  .max(QUESTION_MAX_LENGTH, `Question must be at most ${QUESTION_MAX_LENGTH} characters`);
const answerText = z
  .string({ message: 'Answer is required' })
  .trim()
  .max(ANSWER_MAX_LENGTH, `Answer must be at most ${ANSWER_MAX_LENGTH.toLocaleString('en-US')} characters`);

export const Tag = z
  .string()
  .trim()
  .min(1, 'Tags cannot be empty')
  .max(TAG_MAX_LENGTH, `A tag must be at most ${TAG_MAX_LENGTH} characters`);
export const Tags = z
  .array(Tag, { message: 'Tags must be a list of text' })
  .max(TAGS_MAX, `An entry can have at most ${TAGS_MAX} tags`);

/** PRODUCT §5 library form minimums; the server holds every create and edit to them. */
const libraryQuestion = questionText.min(LIBRARY_QUESTION_MIN, 'Question must be at least 10 characters');
const libraryAnswer = answerText.min(LIBRARY_ANSWER_MIN, 'Answer must be at least 20 characters');

export const CreateCanonicalAnswerBody = z.object({
  question: libraryQuestion,
  answer: libraryAnswer,
  tags: Tags.default([]),
  status: AnswerStatus.default('approved'),
  ownerId: z.uuid({ message: 'Owner must be a user id' }).nullable().optional(),
  /** Approvers only, like the owner; REVIEW_INTERVAL_DEFAULT_DAYS when left out. */
  reviewIntervalDays: ReviewIntervalDays.optional(),
});
export type CreateCanonicalAnswerBody = z.input<typeof CreateCanonicalAnswerBody>;

export const UpdateCanonicalAnswerBody = z
  .object({
    question: libraryQuestion.optional(),
    answer: libraryAnswer.optional(),
    tags: Tags.optional(),
    status: AnswerStatus.optional(),
    ownerId: z.uuid({ message: 'Owner must be a user id' }).nullable().optional(),
    reviewIntervalDays: ReviewIntervalDays.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Nothing to update' });
export type UpdateCanonicalAnswerBody = z.infer<typeof UpdateCanonicalAnswerBody>;

/** The web form: tags are typed as one comma-separated line (PRODUCT §5). */
export const LibraryFormValues = z.object({
  question: libraryQuestion,
  answer: libraryAnswer,
  tags: z.string().max(TAGS_MAX * (TAG_MAX_LENGTH + 2), 'Too many tags'),
});
export type LibraryFormValues = z.infer<typeof LibraryFormValues>;

/** PRODUCT §5: tags comma-separated, each trimmed; empties and repeats dropped. */
export function tagsFromText(text: string): string[] {
  const seen = new Set<string>();
  for (const raw of text.split(',')) {
    const tag = raw.trim();
    if (tag) seen.add(tag);
  }
  return [...seen];
}

const pageLimit = z.coerce
  .number({ message: 'limit must be a number' })
  .int('limit must be a whole number')
  .min(1, `limit must be between 1 and ${LIBRARY_PAGE_MAX}`)
  .max(LIBRARY_PAGE_MAX, `limit must be between 1 and ${LIBRARY_PAGE_MAX}`);

/** A yes/no query parameter: 1 or true, 0 or false. */
function flag(name: string) {
  return z
    .enum(['0', '1', 'true', 'false'], { message: `${name} must be 1 or 0` })
    .transform((v) => v === '1' || v === 'true')
    .optional();
}

export const LibraryFilterQuery = z.object({
  q: z.string().trim().max(500, 'Search text must be at most 500 characters').optional(),
  /** Without a status, approved and draft entries are listed; archived ones only when asked for. */
  status: AnswerStatus.optional(),
  tag: z.string().trim().max(TAG_MAX_LENGTH).optional(),
  /** Only approved entries past their review interval ("Needs re-verification"). */
  reverify: flag('reverify'),
  /** Only entries the caller owns. */
  mine: flag('mine'),
});
export type LibraryFilterQuery = z.infer<typeof LibraryFilterQuery>;

export const ListCanonicalAnswersQuery = LibraryFilterQuery.extend({
  limit: pageLimit.default(LIBRARY_PAGE_DEFAULT),
  offset: z.coerce.number({ message: 'offset must be a number' }).int().min(0, 'offset must be 0 or more').default(0),
});
export type ListCanonicalAnswersQuery = z.input<typeof ListCanonicalAnswersQuery>;

/** Tab counts for the library: `all` is approved + draft (archived entries have their own tab). */
export const LibraryCounts = z.object({
  all: z.number().int(),
  approved: z.number().int(),
  draft: z.number().int(),
  archived: z.number().int(),
  /** Approved entries past their review interval. */
  reverify: z.number().int(),
});
export type LibraryCounts = z.infer<typeof LibraryCounts>;

export const LibraryIds = z.object({ ids: z.array(z.string()) });
export const TagCount = z.object({ tag: z.string(), count: z.number().int() });
export type TagCount = z.infer<typeof TagCount>;

/** PRODUCT §5 Import entry. Imports keep short sheet answers ("Yes") that the library form would refuse. */
export const ImportEntry = z.object({
  question: questionText.min(1, 'Question is required'),
  answer: answerText.min(1, 'Answer is required'),
  tags: Tags.default([]),
  source: z.string().trim().max(SOURCE_MAX_LENGTH).nullable().optional(),
  confidence: z.number().int().min(0, 'Confidence must be 0–100').max(100, 'Confidence must be 0–100').optional(),
});
export type ImportEntry = z.input<typeof ImportEntry>;

export const ImportBody = z.object({
  entries: z
    .array(ImportEntry, { message: 'entries must be a list' })
    .min(1, 'No valid Q&A entries found')
    .max(
      IMPORT_MAX_ENTRIES,
      `An import can hold at most ${IMPORT_MAX_ENTRIES.toLocaleString('en-US')} entries. Split the file and import it in parts.`,
    ),
  /** PRODUCT: imports set no status; Verity approves them unless the importer asks for drafts. */
  status: z.enum(['approved', 'draft'], { message: 'Imported entries can be approved or draft' }).default('approved'),
  /** Only report what would be imported and which entries are duplicates; nothing is saved (the import preview). */
  dryRun: z.boolean({ message: 'dryRun must be true or false' }).default(false),
});
export type ImportBody = z.input<typeof ImportBody>;

export const ImportResult = z.object({
  imported: z.number().int(),
  skipped: z.number().int(),
  /** Entries not imported because the question is already in the library (or repeats earlier in the import). */
  duplicates: z.array(z.object({ index: z.number().int(), question: z.string(), existingId: z.string().nullable() })),
});
export type ImportResult = z.infer<typeof ImportResult>;

export const ExportBody = z.object({
  answerIds: z
    .array(z.uuid({ message: 'answerIds must be answer ids' }), { message: 'answerIds must be a list' })
    .min(1, 'Select at least one answer to export')
    .max(LIBRARY_PAGE_MAX, `At most ${LIBRARY_PAGE_MAX} answers can be exported at once`),
  format: z.enum(['csv', 'xlsx'], { message: 'Format must be csv or xlsx' }).default('csv'),
});
export type ExportBody = z.input<typeof ExportBody>;

export const AnswerVersionView = z.object({
  version: z.number().int(),
  question: z.string(),
  answer: z.string(),
  tags: z.array(z.string()),
  status: AnswerStatus,
  owner: Person.nullable(),
  /** Who made the change that replaced this version, and when. */
  replacedBy: Person.nullable(),
  replacedAt: z.string(),
});
export type AnswerVersionView = z.infer<typeof AnswerVersionView>;

/** Library hygiene: two entries that ask the same thing, and whether their answers disagree. */
export const LibraryIssue = z.object({
  kind: z.enum(['duplicate', 'conflict']),
  /** Question similarity, 0–100. */
  similarity: z.number().int(),
  /** Why the pair is flagged, as a sentence (e.g. 'One answer says yes, the other says no.'). */
  reason: z.string(),
  entries: z.tuple([CanonicalAnswerView, CanonicalAnswerView]),
});
export type LibraryIssue = z.infer<typeof LibraryIssue>;

export const SUGGESTION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const SuggestionStatus = z.enum(SUGGESTION_STATUSES, {
  message: 'status must be pending, approved or rejected',
});
export type SuggestionStatus = z.infer<typeof SuggestionStatus>;
export const SUGGESTION_REASON_MAX = 500;

/**
 * An answer proposed for the library by someone who may not approve entries (PRODUCT §5): it waits in the
 * approvers' inbox until one approves it (it becomes, or updates, an approved entry) or rejects it with a reason.
 */
export const SuggestionView = z.object({
  id: z.string(),
  workspaceId: z.string(),
  question: z.string(),
  answer: z.string(),
  tags: z.array(z.string()),
  status: SuggestionStatus,
  suggestedBy: Person.nullable(),
  /** The assessment the answer was saved from, if any (null when it was deleted since). */
  sourceBatchId: z.string().nullable(),
  sourceBatchName: z.string().nullable(),
  /** Why it was rejected. */
  reason: z.string().nullable(),
  createdAt: z.string(),
  decidedBy: Person.nullable(),
  decidedAt: z.string().nullable(),
  /** The entry an approval created or updated. */
  canonicalAnswerId: z.string().nullable(),
});
export type SuggestionView = z.infer<typeof SuggestionView>;

/** A suggestion holds what a library entry would: the same rules as the library form. */
export const CreateSuggestionBody = z.object({
  question: libraryQuestion,
  answer: libraryAnswer,
  tags: Tags.default([]),
});
export type CreateSuggestionBody = z.input<typeof CreateSuggestionBody>;

export const ListSuggestionsQuery = z.object({
  /** Without a status, every suggestion the caller may see, newest first. */
  status: SuggestionStatus.optional(),
});
export type ListSuggestionsQuery = z.infer<typeof ListSuggestionsQuery>;

/** "Edit then approve": what the approver changed before approving; nothing sent approves it as suggested. */
export const ApproveSuggestionBody = z.object({
  question: libraryQuestion.optional(),
  answer: libraryAnswer.optional(),
  tags: Tags.optional(),
});
export type ApproveSuggestionBody = z.infer<typeof ApproveSuggestionBody>;

export const RejectSuggestionBody = z.object({
  reason: z
    .string({ message: 'Give a reason for the rejection' })
    .trim()
    .min(1, 'Give a reason for the rejection')
    .max(SUGGESTION_REASON_MAX, `The reason must be at most ${SUGGESTION_REASON_MAX} characters`),
});
export type RejectSuggestionBody = z.infer<typeof RejectSuggestionBody>;
