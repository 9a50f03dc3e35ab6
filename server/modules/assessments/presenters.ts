import type { InferSelectModel } from 'drizzle-orm';
import type { assessmentBatches, assessmentQuestions } from '../../db/schema';
import type {
  AssessmentQuestionView,
  BatchStatus,
  BatchView,
  QuestionStatus,
  SheetMapping,
} from '../../../common/schemas/assessments';
import type { AnswerSource, AnswerType } from '../../../common/schemas/qa';
import { disagreesWithCustomer } from './consistency';

export type BatchRow = InferSelectModel<typeof assessmentBatches>;
export type QuestionRow = InferSelectModel<typeof assessmentQuestions>;
export type BatchCounts = { processed: number; failed: number; needsReview: number };

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
  counts: BatchCounts = { processed: 0, failed: 0, needsReview: 0 },
): BatchView {
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
  };
}

/** An answer a person wrote: a draft of theirs until someone who may approve answers accepts it. */
export const isDraft = (q: Pick<QuestionRow, 'answerType'>) => q.answerType === 'draft';

export function storedSources(row: QuestionRow): AnswerSource[] {
  return (row.sources as AnswerSource[]).filter((s) => typeof s === 'object' && s !== null);
}

export function presentSources(row: QuestionRow) {
  return storedSources(row).map((s) => ({ ...s, confidence: Math.round(s.score * 100) }));
}

export function presentQuestion(
  row: QuestionRow,
  extra: { sourceChanged: boolean; conflictsWith: number[] } = { sourceChanged: false, conflictsWith: [] },
): AssessmentQuestionView {
  return {
    id: row.id,
    orderIndex: row.orderIndex,
    question: row.question,
    answer: row.answer,
    answerType: (row.answerType as AnswerType | null) ?? null,
    confidence: row.confidence,
    status: row.status as QuestionStatus,
    errorMessage: row.errorMessage,
    sources: presentSources(row),
    sheet: row.sheet,
    row: row.rowNumber,
    controlId: row.controlId,
    section: row.section,
    allowedValues: row.allowedValues,
    existingAnswer: row.existingAnswer,
    disagreesWithCustomer: disagreesWithCustomer(row.answer, row.existingAnswer),
    edited: row.editedBy !== null,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    sourceChanged: extra.sourceChanged,
    conflictsWith: extra.conflictsWith,
  };
}
