import type { InferSelectModel } from 'drizzle-orm';
import type { assessmentBatches, assessmentQuestions } from '../../db/schema';
import type {
  AssessmentQuestionView,
  BatchStatus,
  BatchView,
  QuestionStatus,
  ReviewCounts,
  SheetMapping,
} from '../../../common/schemas/assessments';
import type { AnswerSource, AnswerType } from '../../../common/schemas/qa';
import type { Person } from '../../../common/schemas/knowledge';
import { isReviewed, type ReviewState } from '../../../common/review-states';
import { disagreesWithCustomer } from './consistency';
import { dropdownCell } from './answer-cell';
import { recalibrate, type Recalibration } from '../../engine/ranking/recalibrate';

export type BatchRow = InferSelectModel<typeof assessmentBatches>;
export type QuestionRow = InferSelectModel<typeof assessmentQuestions>;
export type BatchCounts = { processed: number; failed: number; needsReview: number; review: ReviewCounts };

export const NO_REVIEW_COUNTS: ReviewCounts = {
  needs_answer: 0,
  drafted: 0,
  in_review: 0,
  approved: 0,
  not_applicable: 0,
};

/** Today as a calendar day (UTC): due dates are days, and a day is overdue once it has passed. */
export const today = (now = new Date()) => now.toISOString().slice(0, 10);

/** A question is overdue once its due day (its own, else its assessment's) has passed while it is unreviewed. */
export const isOverdue = (dueOn: string | null, state: ReviewState) =>
  dueOn !== null && dueOn < today() && !isReviewed(state);

/** Whether the Excel export is the customer's own workbook filled in: an .xlsx or .xls source with a stored original. */
export function canFillOriginal(batch: Pick<BatchRow, 'sourceFormat' | 'storageKey'>): boolean {
  return (batch.sourceFormat === 'xlsx' || batch.sourceFormat === 'xls') && batch.storageKey !== null;
}

/**
 * Whether a Word questionnaire can come back filled in: still stored, and every mapped table has a column its
 * answers go to. A Word table is never given a new column, so a table without one would lose its answers.
 */
export function canFillWordOriginal(batch: Pick<BatchRow, 'sourceFormat' | 'storageKey' | 'mapping'>): boolean {
  const mappings = batch.mapping as SheetMapping[];
  return (
    batch.sourceFormat === 'docx' &&
    batch.storageKey !== null &&
    mappings.length > 0 &&
    mappings.every((m) => wordAnswerColumn(m) !== null)
  );
}

/** The column a Word table's answers are written to: for X-marked choice columns, their notes column. */
export const wordAnswerColumn = (m: SheetMapping): number | null =>
  m.answerChoiceColumns?.length ? m.commentsColumn : m.answerColumn;

function originalExport(row: BatchRow): BatchView['originalExport'] {
  if (canFillOriginal(row)) return 'xlsx';
  if (row.sourceFormat === 'csv' && row.storageKey) return 'csv';
  return canFillWordOriginal(row) ? 'docx' : null;
}

export function presentBatch(
  row: BatchRow,
  counts: BatchCounts = { processed: 0, failed: 0, needsReview: 0, review: NO_REVIEW_COUNTS },
): BatchView {
  const unreviewed = counts.review.needs_answer + counts.review.drafted + counts.review.in_review;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status as BatchStatus,
    error: row.error,
    totalQuestions: row.totalQuestions,
    processedQuestions: counts.processed,
    failedQuestions: counts.failed,
    needsReviewQuestions: counts.needsReview,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    metadata: {
      sourceFile: row.metadata.sourceFile ?? null,
      customerName: row.metadata.customerName ?? null,
      assessmentType: row.metadata.assessmentType ?? null,
    },
    sourceFormat: row.sourceFormat as BatchView['sourceFormat'],
    canFillOriginal: canFillOriginal(row),
    originalExport: originalExport(row),
    sessionId: row.sessionId,
    prefilledAnswers: row.prefilledAnswers === 'replace' ? 'replace' : 'keep',
    dueOn: row.dueOn,
    overdue: row.dueOn !== null && row.dueOn < today() && unreviewed > 0,
    reviewCounts: counts.review,
  };
}

/** A draft (a person's answer, or a draft library entry's) until someone who may approve answers accepts it. */
export const isDraft = (q: Pick<QuestionRow, 'answerType'>) => q.answerType === 'draft';

/** Whether there is an answer to review: a person's, or the engine's unless it found nothing ('Needs Review'). */
export const hasAnswer = (q: Pick<QuestionRow, 'answer' | 'answerType' | 'answerOrigin'>) =>
  !!q.answer && (q.answerOrigin === 'person' || (q.answerType !== null && q.answerType !== 'unknown'));

/** What the review screen shows beside a question, loaded for a page of them at once (review.ts questionExtras). */
export type QuestionExtras = {
  sourceChanged: boolean;
  conflictsWith: number[];
  staleSource: boolean;
  savedToLibrary: AssessmentQuestionView['savedToLibrary'];
  /** Usernames of the people the rows name (author, reviewer, assignee). */
  people: ReadonlyMap<string, string>;
  /** The assessment's due date: a question without its own is due then. */
  batchDueOn: string | null;
  /** The customer answered it in their file and the export keeps that answer: Verity writes nothing there. */
  keepsCustomerAnswer?: boolean;
  /** The workspace's own calibration when it is switched on and has enough reviews: the confidence shown follows it. */
  calibration?: Recalibration | null;
};

const NO_EXTRAS: QuestionExtras = {
  sourceChanged: false,
  conflictsWith: [],
  staleSource: false,
  savedToLibrary: null,
  people: new Map(),
  batchDueOn: null,
};

export function storedSources(row: QuestionRow): AnswerSource[] {
  return (row.sources as AnswerSource[]).filter((s) => typeof s === 'object' && s !== null);
}

export function presentSources(row: QuestionRow) {
  return storedSources(row).map((s) => ({ ...s, confidence: Math.round(s.score * 100) }));
}

export function presentQuestion(row: QuestionRow, extra: QuestionExtras = NO_EXTRAS): AssessmentQuestionView {
  const person = (id: string | null): Person | null =>
    id ? { id, username: extra.people.get(id) ?? 'Former user' } : null;
  const reviewState = row.reviewState as ReviewState;
  // Only the figure shown changes: the stored confidence, the answer and its type stay the engine's.
  const calibrated =
    !!extra.calibration && row.answerOrigin === 'machine' && row.confidence !== null && row.answerType !== 'unknown';
  return {
    id: row.id,
    orderIndex: row.orderIndex,
    question: row.question,
    answer: row.answer,
    answerType: (row.answerType as AnswerType | null) ?? null,
    confidence: calibrated && extra.calibration ? recalibrate(extra.calibration, row.confidence ?? 0) : row.confidence,
    engineConfidence: row.confidence,
    confidenceCalibrated: calibrated,
    status: row.status as QuestionStatus,
    errorMessage: row.errorMessage,
    sources: presentSources(row),
    sheet: row.sheet,
    row: row.rowNumber,
    controlId: row.controlId,
    section: row.section,
    allowedValues: row.allowedValues,
    dropdownCell: extra.keepsCustomerAnswer ? null : dropdownCell(row),
    existingAnswer: row.existingAnswer,
    disagreesWithCustomer: disagreesWithCustomer(row.answer, row.existingAnswer),
    edited: row.answerOrigin === 'person',
    answerOrigin: row.answerOrigin === 'person' || row.answerOrigin === 'machine' ? row.answerOrigin : null,
    author: row.answerOrigin === 'person' ? person(row.editedBy) : null,
    answeredAt: row.answeredAt?.toISOString() ?? null,
    reviewState,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    reviewedBy: person(row.reviewedBy),
    assignee: person(row.assigneeId),
    dueOn: row.dueOn,
    overdue: isOverdue(row.dueOn ?? extra.batchDueOn, reviewState),
    staleSource: extra.staleSource,
    savedToLibrary: extra.savedToLibrary,
    sourceChanged: extra.sourceChanged,
    conflictsWith: extra.conflictsWith,
  };
}
