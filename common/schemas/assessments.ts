import { z } from 'zod';
import { ANSWER_MAX_LENGTH } from '../constants';
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
/** The specification's question states, plus `approved` once a reviewer accepts the answer. */
export const QUESTION_STATUSES = ['pending', 'processing', 'completed', 'failed', 'approved'] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

const MISSING_CSV = 'Please provide assessment name and upload a CSV file.';

export const AssessmentMetadata = z.object({
  sourceFile: z.string().trim().max(255, 'The file name must be at most 255 characters').nullish(),
  customerName: z.string().trim().max(200, 'Customer name must be at most 200 characters').nullish(),
  assessmentType: z.string().trim().max(100, 'Assessment type must be at most 100 characters').nullish(),
});

const Name = z
  .string({ message: MISSING_CSV })
  .trim()
  .min(1, MISSING_CSV)
  .max(200, 'Assessment name must be at most 200 characters');
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
  /** CAIQ v3: the answer is an X under one of these columns (Yes / No / Not Applicable). */
  answerChoiceColumns: z
    .array(z.object({ column: z.number().int().min(0).max(16_383), label: z.string().min(1).max(200) }))
    .max(10)
    .optional(),
});
export type SheetMapping = z.infer<typeof SheetMapping>;

/**
 * What the export does with answers already in the customer's file: leave every one of them ('keep'), or replace
 * those Verity answers with high confidence ('replace').
 */
export const PrefilledAnswers = z.enum(['keep', 'replace'], { message: 'prefilledAnswers must be keep or replace' });
export type PrefilledAnswers = z.infer<typeof PrefilledAnswers>;

/** The text fields of the multipart import (`file` is the file part). */
export const ImportFileFields = z.object({
  name: Name.optional(),
  customerName: z.string().trim().max(200, 'Customer name must be at most 200 characters').optional(),
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
    .pipe(z.array(SheetMapping, { message: 'mapping must be a list of sheet mappings' }).min(1).max(100))
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
  /** Why a sheet holding questions is not read as the questionnaire (a reference sheet, a copy); null otherwise. */
  skipped: z.string().nullable(),
});

export const PreviewResponse = z.object({
  fileName: z.string(),
  format: z.enum(['csv', 'xlsx', 'xls', 'docx']),
  sheets: z.array(PreviewSheet),
  totalQuestions: z.number().int(),
  /** Questions the customer had already answered in the file. */
  prefilledAnswers: z.number().int(),
  /** The first questions, as they will be imported. */
  questions: z.array(PreviewQuestion),
});
export type PreviewResponse = z.infer<typeof PreviewResponse>;

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
});
export type BatchView = z.infer<typeof BatchView>;

/** PRODUCT: "in assessments each source has documentId and confidence". */
export const AssessmentSource = AnswerSource.extend({ confidence: z.number().int() });

export const AssessmentQuestionView = z.object({
  id: z.string(),
  orderIndex: z.number().int(),
  question: z.string(),
  answer: z.string().nullable(),
  answerType: AnswerType.nullable(),
  confidence: z.number().int().nullable(),
  status: z.enum(QUESTION_STATUSES),
  errorMessage: z.string().nullable(),
  sources: z.array(AssessmentSource),
  sheet: z.string().nullable(),
  row: z.number().int().nullable(),
  controlId: z.string().nullable(),
  section: z.string().nullable(),
  allowedValues: z.array(z.string()).nullable(),
  /** The customer's own answer, already in the file they sent. */
  existingAnswer: z.string().nullable(),
  /** Verity's answer says Yes where the customer's says No, or the other way round. */
  disagreesWithCustomer: z.boolean(),
  edited: z.boolean(),
  reviewedAt: z.string().nullable(),
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
  /** Also export answers a person wrote that nobody approved yet, each marked as a draft (left out by default). */
  drafts: z
    .enum(['0', '1', 'true', 'false'])
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
      sources: z.array(AssessmentSource),
    }),
  ),
});
export type ExportResponse = z.infer<typeof ExportResponse>;

export const QuestionParams = z.object({
  id: z.uuid({ message: 'Invalid id' }),
  qid: z.uuid({ message: 'Invalid question id' }),
});

export const UpdateQuestionBody = z
  .object({
    answer: z
      .string()
      .trim()
      .min(1, 'The answer cannot be empty')
      .max(ANSWER_MAX_LENGTH, `The answer must be at most ${ANSWER_MAX_LENGTH} characters`)
      .optional(),
    /** `approved`: a person accepts the answer as it stands (after the edit, when both are sent). */
    status: z.enum(['approved', 'completed'], { message: 'status must be approved or completed' }).optional(),
  })
  .refine((b) => b.answer !== undefined || b.status !== undefined, { message: 'Send an answer or a status' });
export type UpdateQuestionBody = z.input<typeof UpdateQuestionBody>;

export const SaveToLibraryBody = z.object({
  tags: z.array(z.string().trim().min(1).max(60)).max(30).default([]),
});

export const SaveToLibraryResult = z.object({ canonicalAnswerId: z.string(), status: z.enum(['approved', 'draft']) });

export const RetryResult = z.object({ retried: z.number().int() });
