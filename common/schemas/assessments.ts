import { z } from 'zod';
import { ANSWER_MAX_LENGTH } from '../constants';
import { safeName } from '../names';
import { REVIEW_ACTION_NAMES, REVIEW_STATES, type ReviewAction } from '../review-states';
import { Person } from './knowledge';
import { AnswerSource, AnswerType } from './qa';

/** A questionnaire file (CSV, XLSX, XLS or DOCX) may be at most this big. */
export const ASSESSMENT_FILE_MAX_BYTES = 20 * 1024 * 1024;
/** Questions in one assessment, over all its sheets. */
export const ASSESSMENT_MAX_QUESTIONS = 5000;
/** What the import call promises per question, for the specification's "Estimated time: …" (the worker does ≥ 50/s). */
export const ASSESSMENT_SECONDS_PER_QUESTION = 0.05;
export const ASSESSMENT_POLL_MS = 5000;

export const BATCH_STATUSES = ['processing', 'completed', 'failed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
/** The worker's progress on a question; where its answer stands in review is `reviewState` (common/review-states). */
export const QUESTION_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

const MISSING_CSV = 'Please provide assessment name and upload a CSV file.';

/** The customer an assessment is for: shown to others, and in the assignment e-mail (common/names.ts). */
const CustomerName = safeName(
  z.string().trim().max(200, 'Customer name must be at most 200 characters'),
  'Customer name',
);

export const AssessmentMetadata = z.object({
  sourceFile: z.string().trim().max(255, 'The file name must be at most 255 characters').nullish(),
  customerName: CustomerName.nullish(),
  assessmentType: z.string().trim().max(100, 'Assessment type must be at most 100 characters').nullish(),
});

const Name = safeName(
  z
    .string({ message: MISSING_CSV })
    .trim()
    .min(1, MISSING_CSV)
    .max(200, 'Assessment name must be at most 200 characters'),
  'Assessment name',
);
const Description = z.string().trim().max(2000, 'Description must be at most 2000 characters');

/** PRODUCT §9 POST /api/assessments/import-csv. */
export const ImportCsvBody = z.object({
  csvContent: z
    .string({ message: MISSING_CSV })
    .min(1, MISSING_CSV)
    .max(ASSESSMENT_FILE_MAX_BYTES, 'The CSV is larger than 20 MB. Split it into smaller files.'),
  name: Name,
  description: Description.optional(),
  metadata: AssessmentMetadata.optional(),
});
export type ImportCsvBody = z.input<typeof ImportCsvBody>;

/** Where one sheet's questions and answer cells are: 0-based row and column indexes of the sheet's cell grid. */
export const SheetMapping = z.object({
  sheet: z.string().min(1).max(200),
  headerRow: z.number().int().min(-1).max(100_000),
  questionColumn: z.number().int().min(0).max(16_383),
  answerColumn: z.number().int().min(0).max(16_383).nullable(),
  commentsColumn: z.number().int().min(0).max(16_383).nullable(),
  idColumn: z.number().int().min(0).max(16_383).nullable(),
  /**
   * The first and last rows that may hold questions, 0-based like headerRow (the preview shows row numbers, 1-based);
   * rows outside are not questions. Without them: from under the header (or from an earlier referenced row) to the
   * end of the sheet.
   */
  firstRow: z.number().int().min(0).max(1_048_575).optional(),
  lastRow: z.number().int().min(0).max(1_048_575).optional(),
  /**
   * CAIQ v3: the answer is an X under one of these columns (Yes / No / Not Applicable); `mark` is what the export
   * writes under the chosen one (the mark the sheet already uses).
   */
  answerChoiceColumns: z
    .array(
      z.object({
        column: z.number().int().min(0).max(16_383),
        label: z.string().min(1).max(200),
        mark: z.string().trim().min(1).max(20).optional(),
      }),
    )
    .max(10)
    .optional(),
});
export type SheetMapping = z.infer<typeof SheetMapping>;

/**
 * Why a sheet's header and question rows do not go together, as a clause completing "The column choice for … is not
 * valid: …", or null. Rows are 0-based and said as the spreadsheet numbers them. The server also checks them against
 * the sheet itself (a row below its last).
 */
export function sheetRowsProblem(mapping: Pick<SheetMapping, 'headerRow' | 'firstRow' | 'lastRow'>): string | null {
  const { headerRow, firstRow, lastRow } = mapping;
  if (firstRow !== undefined && lastRow !== undefined && firstRow > lastRow) {
    return `the first question row (row ${String(firstRow + 1)}) is after the last question row (row ${String(lastRow + 1)})`;
  }
  if (lastRow !== undefined && headerRow >= lastRow) {
    return `the header row (row ${String(headerRow + 1)}) is not above the last question row (row ${String(lastRow + 1)})`;
  }
  return null;
}

/**
 * What the export does with answers already in the customer's file: leave every one of them ('keep'), or replace
 * those Verity answers with high confidence ('replace').
 */
export const PrefilledAnswers = z.enum(['keep', 'replace'], { message: 'prefilledAnswers must be keep or replace' });
export type PrefilledAnswers = z.infer<typeof PrefilledAnswers>;

/** The text fields of the multipart import (`file` is the file part). */
export const ImportFileFields = z.object({
  name: Name.optional(),
  customerName: CustomerName.optional(),
  assessmentType: z.string().trim().max(100, 'Assessment type must be at most 100 characters').optional(),
  description: Description.optional(),
  /** The preview's mapping, possibly changed by the user; without it the detected one is used. */
  mapping: z
    .string()
    .max(100_000)
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'mapping must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(
      z
        .array(SheetMapping, { message: 'mapping must be a list of sheet mappings' })
        .min(1)
        .max(100)
        .superRefine((mappings, ctx) => {
          for (const mapping of mappings) {
            const problem = sheetRowsProblem(mapping);
            if (problem) {
              ctx.addIssue({
                code: 'custom',
                message: `The column choice for "${mapping.sheet}" is not valid: ${problem}.`,
              });
              return;
            }
          }
        }),
    )
    .optional(),
  /** The Ask screen's chat that started it (Bulk Import). */
  sessionId: z.uuid({ message: 'sessionId must be a session id' }).optional(),
  /** Answers the customer already filled in: kept in the exported file, or replaced where Verity is confident. */
  prefilledAnswers: PrefilledAnswers.optional(),
});
export type ImportFileFields = z.output<typeof ImportFileFields>;

export const ImportResult = z.object({
  id: z.string(),
  totalQuestions: z.number().int(),
  estimatedTime: z.string(),
});
export type ImportResult = z.infer<typeof ImportResult>;

export const PreviewQuestion = z.object({
  sheet: z.string(),
  row: z.number().int().nullable(),
  controlId: z.string().nullable(),
  section: z.string().nullable(),
  question: z.string(),
  allowedValues: z.array(z.string()).nullable(),
  /** The customer's answer already in the file, if any. */
  existingAnswer: z.string().nullable(),
});
export type PreviewQuestion = z.infer<typeof PreviewQuestion>;

export const PreviewSheet = z.object({
  name: z.string(),
  hidden: z.boolean(),
  rowCount: z.number().int(),
  /** The header row's labels, or "Column A"… when the sheet has none; used to offer other columns. */
  columns: z.array(z.string()),
  mapping: SheetMapping.nullable(),
  questionCount: z.number().int(),
  /** Of those, the questions the customer already answered in the file: the filled file leaves them as they are. */
  prefilledAnswers: z.number().int(),
  /**
   * Of those, the questions whose answer cell is a dropdown list: the filled file puts a value of the list there and
   * the full answer in the comments column. Always 0 on a sheet answered by marks under choice columns.
   */
  dropdownQuestions: z.number().int(),
  /** Why a sheet holding questions is not read as the questionnaire (a reference sheet, a copy); null otherwise. */
  skipped: z.string().nullable(),
});

/** A layout the organization remembered from an import a person corrected, applied to this file's preview. */
export const RememberedLayout = z.object({
  id: z.string(),
  savedAt: z.string(),
  /** Who made the correction; null once they are removed. */
  savedBy: Person.nullable(),
});
export type RememberedLayout = z.infer<typeof RememberedLayout>;

export const PreviewResponse = z.object({
  fileName: z.string(),
  format: z.enum(['csv', 'xlsx', 'xls', 'docx']),
  sheets: z.array(PreviewSheet),
  totalQuestions: z.number().int(),
  /** Questions the customer had already answered in the file. */
  prefilledAnswers: z.number().int(),
  /** The first questions, as they will be imported. */
  questions: z.array(PreviewQuestion),
  /**
   * Set when no mapping was sent and the organization remembered one for files of this layout: the preview (and an
   * import without a mapping) reads the file with it. Null: detection's reading.
   */
  rememberedLayout: RememberedLayout.nullable(),
});
export type PreviewResponse = z.infer<typeof PreviewResponse>;

export const ReviewState = z.enum(REVIEW_STATES, {
  message: 'reviewState must be needs_answer, drafted, in_review, approved or not_applicable',
});
export const ReviewCounts = z.object(
  Object.fromEntries(REVIEW_STATES.map((s) => [s, z.number().int()])) as Record<
    (typeof REVIEW_STATES)[number],
    z.ZodNumber
  >,
);
export type ReviewCounts = z.infer<typeof ReviewCounts>;

/** A calendar day as the date input gives it. */
export const DueDate = z
  .string({ message: 'The due date must be a date (YYYY-MM-DD)' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'The due date must be a date (YYYY-MM-DD)')
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    { message: 'The due date must be a real calendar day' },
  )
  // Also keeps out what the database cannot store (year 0).
  .refine((d) => d >= '2000-01-01' && d <= '2099-12-31', {
    message: 'The due date must be between 2000 and 2099',
  });

export const BatchView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(BATCH_STATUSES),
  error: z.string().nullable(),
  totalQuestions: z.number().int(),
  processedQuestions: z.number().int(),
  failedQuestions: z.number().int(),
  /** Answered 'Needs Review': nothing in the workspace answers them; a person must. */
  needsReviewQuestions: z.number().int(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  metadata: z.object({
    sourceFile: z.string().nullable(),
    customerName: z.string().nullable(),
    assessmentType: z.string().nullable(),
  }),
  sourceFormat: z.enum(['csv', 'xlsx', 'xls', 'docx']),
  /** The Excel export is the original workbook filled in (an .xlsx or .xls source). */
  canFillOriginal: z.boolean(),
  /** The format the customer's own file comes back in, filled (format=original); null when it cannot be. */
  originalExport: z.enum(['xlsx', 'csv', 'docx']).nullable(),
  sessionId: z.string().nullable(),
  /** What the export does with answers the customer had already filled in. */
  prefilledAnswers: PrefilledAnswers,
  /** The day the customer expects it back (YYYY-MM-DD), and whether that day passed with questions unreviewed. */
  dueOn: z.string().nullable(),
  overdue: z.boolean(),
  /** How many questions are in each review state. */
  reviewCounts: ReviewCounts,
});
export type BatchView = z.infer<typeof BatchView>;

/**
 * What the export writes into a question's dropdown answer cell: `value` (null: the cell is left empty), whether a
 * person picked it, and why the export chose none when it did not.
 */
export const DropdownCellView = z.object({
  allowed: z.array(z.string()),
  value: z.string().nullable(),
  picked: z.boolean(),
  reason: z.string().nullable(),
});
export type DropdownCellView = z.infer<typeof DropdownCellView>;

/** PRODUCT: "in assessments each source has documentId and confidence". */
export const AssessmentSource = AnswerSource.extend({ confidence: z.number().int() });

export const AssessmentQuestionView = z.object({
  id: z.string(),
  orderIndex: z.number().int(),
  question: z.string(),
  answer: z.string().nullable(),
  answerType: AnswerType.nullable(),
  /** The confidence shown: the engine's, or its recalibration on the workspace's reviews (`confidenceCalibrated`). */
  confidence: z.number().int().nullable(),
  /** The confidence the engine stated (stored, and what the exported file carries). */
  engineConfidence: z.number().int().nullable(),
  /** `confidence` is recalibrated on this workspace's own reviews (issue 36): the engine said `engineConfidence`. */
  confidenceCalibrated: z.boolean(),
  status: z.enum(QUESTION_STATUSES),
  errorMessage: z.string().nullable(),
  sources: z.array(AssessmentSource),
  sheet: z.string().nullable(),
  row: z.number().int().nullable(),
  controlId: z.string().nullable(),
  section: z.string().nullable(),
  allowedValues: z.array(z.string()).nullable(),
  /** The answer cell is a dropdown: what the export writes into it. */
  dropdownCell: DropdownCellView.nullable(),
  /** The customer's own answer, already in the file they sent. */
  existingAnswer: z.string().nullable(),
  /** Verity's answer says Yes where the customer's says No, or the other way round. */
  disagreesWithCustomer: z.boolean(),
  /** A person wrote this answer (`answerOrigin` is 'person'). */
  edited: z.boolean(),
  /** Who produced the answer: the engine (type, confidence and sources are its own) or a person (`author`). */
  answerOrigin: z.enum(['machine', 'person']).nullable(),
  author: Person.nullable(),
  answeredAt: z.string().nullable(),
  reviewState: ReviewState,
  reviewedAt: z.string().nullable(),
  reviewedBy: Person.nullable(),
  assignee: Person.nullable(),
  dueOn: z.string().nullable(),
  /** Its due date passed and it is neither approved nor marked not applicable. */
  overdue: z.boolean(),
  /** The library entry the answer came from is past its review interval: it needs re-verification. */
  staleSource: z.boolean(),
  /** What "Save to library" made of it: an entry, or a suggestion waiting in the approvers' inbox (or rejected). */
  savedToLibrary: z
    .object({
      status: z.enum(['approved', 'draft', 'pending', 'rejected']),
      canonicalAnswerId: z.string().nullable(),
      suggestionId: z.string().nullable(),
    })
    .nullable(),
  /** A library entry this answer came from has changed (or was deleted) since. */
  sourceChanged: z.boolean(),
  /** Questions of this assessment whose answer contradicts this one (Yes here, No there on the same control). */
  conflictsWith: z.array(z.number().int()),
});
export type AssessmentQuestionView = z.infer<typeof AssessmentQuestionView>;

export const AssessmentProgress = z.object({
  completed: z.number().int(),
  pending: z.number().int(),
  failed: z.number().int(),
  total: z.number().int(),
  percentage: z.number().int(),
});
export type AssessmentProgress = z.infer<typeof AssessmentProgress>;

export const AssessmentDetail = z.object({
  batch: BatchView,
  questions: z.array(AssessmentQuestionView),
  progress: AssessmentProgress,
});
export type AssessmentDetail = z.infer<typeof AssessmentDetail>;

export const ExportQuery = z.object({
  /** original: the customer's own file filled in, in its own format (.xls comes back as .xlsx). */
  format: z
    .enum(['json', 'csv', 'xlsx', 'original'], { message: 'format must be json, csv, xlsx or original' })
    .default('json'),
  /** xlsx: add a "Source" column citing the document and page or library entry of each answer. */
  sources: z
    .enum(['0', '1', 'true', 'false'])
    .transform((v) => v === '1' || v === 'true')
    .optional(),
  /** xlsx: a new workbook with the questions and answers, even when the customer's own file could be filled. */
  generic: z
    .enum(['0', '1', 'true', 'false'])
    .transform((v) => v === '1' || v === 'true')
    .optional(),
  /** approved: only approved answers (and "N/A" for questions marked not applicable) are written; others stay blank. */
  scope: z.enum(['all', 'approved'], { message: 'scope must be all or approved' }).default('all'),
  /** Also export answers a person wrote that nobody approved yet, each marked as a draft (left out by default). */
  drafts: z
    .enum(['0', '1', 'true', 'false'])
    .transform((v) => v === '1' || v === 'true')
    .optional(),
  /** scope all: also export the engine's answers nobody has reviewed yet (the default); 0 leaves them blank. */
  machine: z
    .enum(['0', '1', 'true', 'false'], { message: 'machine must be 0 or 1' })
    .transform((v) => v === '1' || v === 'true')
    .optional(),
});

export const ExportResponse = z.object({
  batchName: z.string(),
  questions: z.array(
    z.object({
      orderIndex: z.number().int(),
      controlId: z.string().nullable(),
      question: z.string(),
      answer: z.string().nullable(),
      answerType: AnswerType.nullable(),
      confidence: z.number().int().nullable(),
      status: z.enum(QUESTION_STATUSES),
      reviewState: ReviewState,
      sources: z.array(AssessmentSource),
    }),
  ),
});
export type ExportResponse = z.infer<typeof ExportResponse>;

export const QuestionParams = z.object({
  id: z.uuid({ message: 'Invalid id' }),
  qid: z.uuid({ message: 'Invalid question id' }),
});

/** A person's answer, optionally citing the library entry or document it rests on (null: cite nothing). */
export const UpdateQuestionBody = z.object({
  answer: z
    .string({ message: 'The answer is required' })
    .trim()
    .min(1, 'The answer cannot be empty')
    .max(ANSWER_MAX_LENGTH, `The answer must be at most ${ANSWER_MAX_LENGTH} characters`),
  cite: z
    .discriminatedUnion(
      'type',
      [
        z.object({ type: z.literal('library'), id: z.uuid({ message: 'Invalid library entry id' }) }),
        z.object({ type: z.literal('document'), id: z.uuid({ message: 'Invalid document id' }) }),
      ],
      { message: 'cite must name a library entry or a document' },
    )
    .nullish(),
});
export type UpdateQuestionBody = z.input<typeof UpdateQuestionBody>;

/**
 * The dropdown value a person picks for the answer cell: one the cell's list offers, '' to leave the cell empty, or
 * null to let the export choose from the answer again.
 */
export const AnswerChoiceBody = z.object({
  value: z
    .string({ message: 'value must be one of the dropdown values, an empty string or null' })
    .max(255, 'value must be at most 255 characters')
    .nullable(),
});
export type AnswerChoiceBody = z.infer<typeof AnswerChoiceBody>;

export const SaveToLibraryBody = z.object({
  tags: z.array(z.string().trim().min(1).max(60)).max(30).default([]),
});

/** approved: the entry is in the library; pending: a suggestion waits for an approver (PRODUCT §5). */
export const SaveToLibraryResult = z.object({
  status: z.enum(['approved', 'pending']),
  canonicalAnswerId: z.string().nullable(),
  suggestionId: z.string().nullable(),
});

export const ReviewActionBody = z.object({
  /**
   * When the answer the reviewer looked at was written (the question's `answeredAt`): if it changed since, the
   * action is refused rather than applied to text they never saw. Optional for scripts.
   */
  answeredAt: z.iso.datetime({ message: 'answeredAt must be a date and time', offset: true }).nullish(),
  action: z.enum(REVIEW_ACTION_NAMES as [ReviewAction, ...ReviewAction[]], {
    message: `action must be one of ${REVIEW_ACTION_NAMES.join(', ')}`,
  }),
});

const QuestionIds = z
  .array(z.uuid({ message: 'Invalid question id' }), { message: 'questionIds must be a list of question ids' })
  .min(1, 'Choose at least one question')
  .max(ASSESSMENT_MAX_QUESTIONS, `At most ${ASSESSMENT_MAX_QUESTIONS} questions at once`);

/** Questions picked one by one, or all of one section (as the import found it; null: questions without one). */
const Selection = z.union([
  z.object({ questionIds: QuestionIds, section: z.undefined().optional() }),
  z.object({ section: z.string().max(500).nullable(), questionIds: z.undefined().optional() }),
]);

/**
 * The answers a reviewer approves in bulk, as they saw them: each question's `answeredAt` when loaded (null: it had
 * no answer then). Required, unlike the single step's: an approve of a whole section by a client that does not say
 * what it saw would approve text nobody read, so it is refused rather than trusted. An answer written since, or of
 * a question missing here, is left as it is and counted (`skippedChanged`).
 */
const SeenAnswers = z
  .record(
    z.uuid({ message: 'answeredAt must map question ids to the time of the answer you saw' }),
    z.iso.datetime({ message: 'answeredAt must map question ids to a date and time', offset: true }).nullable(),
    {
      message:
        'answeredAt is required: the time of each answer you approve, as you saw it. Reload the assessment and try again.',
    },
  )
  .refine((seen) => Object.keys(seen).length <= ASSESSMENT_MAX_QUESTIONS, {
    message: `At most ${ASSESSMENT_MAX_QUESTIONS} questions at once`,
  });

export const BulkReviewBody = z.discriminatedUnion(
  'action',
  [
    /** Approve every machine answer at or above this confidence that is not reviewed yet. */
    z.object({
      action: z.literal('accept'),
      minConfidence: z
        .number({ message: 'minConfidence must be a number from 0 to 100' })
        .int('minConfidence must be a whole number')
        .min(0, 'minConfidence must be a number from 0 to 100')
        .max(100, 'minConfidence must be a number from 0 to 100'),
    }),
    z.object({
      action: z.literal('assign'),
      /** null: nobody (unassign). */
      assigneeId: z.uuid({ message: 'Invalid assignee id' }).nullable(),
      dueOn: DueDate.nullish(),
      selection: Selection,
    }),
    z.object({ action: z.literal('not_applicable'), selection: Selection }),
    z.object({ action: z.literal('approve'), selection: Selection, answeredAt: SeenAnswers }),
  ],
  { message: 'action must be accept, assign, not_applicable or approve' },
);
export type BulkReviewBody = z.infer<typeof BulkReviewBody>;
export const BulkReviewResult = z.object({
  updated: z.number().int(),
  /** approve only: answers left as they were because they changed after the reviewer saw them (or were not seen). */
  skippedChanged: z.number().int().optional(),
});
export type BulkReviewResult = z.infer<typeof BulkReviewResult>;

export const UpdateBatchBody = z.object({ dueOn: DueDate.nullable() });

/** One question assigned to the caller, with the assessment it belongs to ("My questions"). */
export const MyQuestion = z.object({
  batchId: z.string(),
  batchName: z.string(),
  customerName: z.string().nullable(),
  batchDueOn: z.string().nullable(),
  question: z.lazy(() => AssessmentQuestionView),
});
export type MyQuestion = z.infer<typeof MyQuestion>;
export const MyQuestionsResponse = z.object({ questions: z.array(MyQuestion) });

/** What waits for a reviewer in this workspace: questions in review, and how many assessments they are in. */
export const ReviewQueue = z.object({
  questions: z.number().int().nonnegative(),
  assessments: z.number().int().nonnegative(),
});
export type ReviewQueue = z.infer<typeof ReviewQueue>;

export const RetryResult = z.object({ retried: z.number().int() });
