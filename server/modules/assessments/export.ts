import type { BatchView, ExportResponse, SheetMapping } from '../../../common/schemas/assessments';
import type { AnswerSource } from '../../../common/schemas/qa';
import type { ObjectStorage } from '../../storage/types';
import { PREFILLED_REPLACE_CONFIDENCE } from '../../../common/constants';
import { NOT_APPLICABLE_TEXT, REVIEW_STATE_LABELS, type ReviewState } from '../../../common/review-states';
import { AppError } from '../../errors';
import { answersToCsv, answersToNewXlsx } from '../../ingest/questionnaire/write-xlsx';
import { DEFAULT_CHOICE_MARK } from '../../ingest/questionnaire/text-patterns';
import { exportOriginal, type OriginalAnswer } from './export-original';
import type { ExportRow, WriteTarget } from '../../ingest/questionnaire/write-types';
import { pickedChoice, shortAnswerOf } from './answer-cell';
import {
  canFillOriginal,
  canFillWordOriginal,
  isDraft,
  wordAnswerColumn,
  presentQuestion,
  storedSources,
  type BatchRow,
  type QuestionRow,
} from './presenters';

/** The stored original, or null when it is gone (then the export is a new workbook rather than an error). */
async function readOriginal(storage: ObjectStorage, key: string): Promise<Uint8Array | null> {
  if (!(await storage.head(key))) return null;
  return storage.read(key);
}

export type ExportOptions = {
  /** Also export answers a person wrote that nobody approved yet, each marked with {@link DRAFT_MARK}. */
  drafts: boolean;
  /** 'approved': only approved answers (and questions marked not applicable) are written, the rest left blank. */
  scope?: 'all' | 'approved';
  /** With scope 'all': the engine's answers nobody reviewed yet go in too (true unless said otherwise). */
  machine?: boolean;
};

/** Put before an unapproved draft's text when the user asked for drafts, so nobody sends it on unawares. */
export const DRAFT_MARK = 'Draft — not approved: ';

/** A draft (a person's answer, or a draft library entry's) that nobody allowed to approve answers has accepted yet. */
const unapprovedDraft = (q: QuestionRow) => isDraft(q) && q.reviewState !== 'approved';
const notApplicable = (q: QuestionRow) => q.reviewState === 'not_applicable';

/**
 * Answers a customer may receive: a 'Needs Review' placeholder is not one, the cell stays empty for a person; nor
 * is an unapproved draft, unless the user asked for drafts, nor the engine's unreviewed answer when the user left
 * those out; with scope 'approved', only approved answers are. A question marked not applicable says so.
 */
const deliverable = (q: QuestionRow, opts: ExportOptions) =>
  notApplicable(q) ||
  (!!q.answer &&
    q.answerType !== null &&
    q.answerType !== 'unknown' &&
    (opts.scope === 'approved' || q.reviewState === 'approved'
      ? q.reviewState === 'approved'
      : unapprovedDraft(q)
        ? opts.drafts
        : opts.machine !== false || q.answerOrigin === 'person'));

/** The text exported for a deliverable answer: an unapproved draft carries its mark. */
const exportedAnswer = (q: QuestionRow) =>
  notApplicable(q) ? NOT_APPLICABLE_TEXT : `${unapprovedDraft(q) ? DRAFT_MARK : ''}${q.answer ?? ''}`;

/** An answer whose confidence and sources are not shown: withheld from the file, or the question does not apply. */
const withheld = (q: QuestionRow, opts: ExportOptions) => !deliverable(q, opts) || notApplicable(q);

export function exportJson(batch: BatchRow, rows: QuestionRow[], opts: ExportOptions): ExportResponse {
  return {
    batchName: batch.name,
    questions: rows.map((r) => {
      const v = presentQuestion(r);
      const hidden = withheld(r, opts);
      return {
        orderIndex: v.orderIndex,
        controlId: v.controlId,
        question: v.question,
        answer: deliverable(r, opts) ? exportedAnswer(r) : null,
        answerType: v.answerType,
        confidence: hidden ? null : v.confidence,
        status: v.status,
        reviewState: v.reviewState,
        sources: hidden ? [] : v.sources,
      };
    }),
  };
}

/** "Information Security Policy.pdf, p. 4" or "Library: Do you encrypt…?". */
export function citation(sources: readonly AnswerSource[]): string {
  return sources
    .slice(0, 3)
    .map((s) =>
      s.type === 'document'
        ? `${s.name ?? 'Document'}${s.pageNumber ? `, p. ${s.pageNumber}` : ''}${s.section ? ` (${s.section})` : ''}`
        : `Library: ${s.question ?? ''}`,
    )
    .join('; ');
}

/** The rows of the CSV and of a new workbook: the same columns in both. */
function exportRows(rows: QuestionRow[], opts: ExportOptions): ExportRow[] {
  return rows.map((r) => {
    const hidden = withheld(r, opts);
    return {
      orderIndex: r.orderIndex,
      controlId: r.controlId,
      question: r.question,
      answer: deliverable(r, opts) ? exportedAnswer(r) : '',
      answerType: r.answerType ?? '',
      confidence: hidden ? null : r.confidence,
      status: REVIEW_STATE_LABELS[r.reviewState as ReviewState] ?? r.reviewState,
      sources: hidden ? '' : citation(storedSources(r)),
    };
  });
}

export function exportCsv(rows: QuestionRow[], opts: ExportOptions): string {
  return answersToCsv(exportRows(rows, opts));
}

/**
 * The customer's own workbook with the answers written in (an .xlsx or .xls source; .xls comes back as .xlsx), else
 * a new workbook with the questions and answers. `generic` asks for the new workbook even when the original could
 * be filled. An original that should be filled but cannot be (its stored file is gone, or it does not fit its
 * mapping) is a 422 with the reason: the user then chooses the new workbook, it is never handed out silently.
 * `withSources` adds a "Source" column citing where each answer came from.
 */
export async function exportXlsx(
  storage: ObjectStorage,
  batch: BatchRow,
  rows: QuestionRow[],
  withSources: boolean,
  opts: ExportOptions & { generic?: boolean },
): Promise<Uint8Array> {
  if (canFillOriginal(batch) && !opts.generic) {
    const original = await readOriginal(storage, batch.storageKey ?? '');
    if (!original) throw originalMissing();
    const answers = originalAnswers(batch, rows, withSources, opts);
    const format = batch.sourceFormat === 'xls' ? 'xls' : 'xlsx';
    return exportOriginal(original, format, batch.mapping as SheetMapping[], answers, { withSources });
  }
  return answersToNewXlsx(batch.name, exportRows(rows, opts));
}

/**
 * Where each mapped sheet's answers go in the original workbook. Mappings are 0-based; targets are 1-based as
 * Excel shows them. `allowedValues` gives a sheet's answer dropdown values, if any.
 */
export function writeTargets(
  mappings: readonly SheetMapping[],
  allowedValues: (sheet: string) => string[] | null,
  withSources: boolean,
): WriteTarget[] {
  const column = (c: number | null) => (c === null ? null : c + 1);
  return mappings.map((m) => {
    // CAIQ v3 answers with an X under Yes / No / Not Applicable: the short answer is a mark under its column (only
    // on a row with no mark yet), and the written answer goes to the notes column (or a new Response column).
    if (m.answerChoiceColumns?.length) {
      return {
        sheet: m.sheet,
        headerRow: m.headerRow + 1,
        questionColumn: m.questionColumn + 1,
        answerColumn: column(m.commentsColumn),
        commentsColumn: null,
        allowedValues: null,
        addSourceColumn: withSources,
        choiceColumns: m.answerChoiceColumns.map((choice) => ({
          column: choice.column + 1,
          label: choice.label,
          mark: choice.mark ?? DEFAULT_CHOICE_MARK,
        })),
      };
    }
    return {
      sheet: m.sheet,
      headerRow: m.headerRow + 1,
      questionColumn: m.questionColumn + 1,
      answerColumn: column(m.answerColumn),
      commentsColumn: column(m.commentsColumn),
      allowedValues: allowedValues(m.sheet),
      addSourceColumn: withSources,
    };
  });
}

/** The answers for the customer's own file, with what the import saw in each answer cell. */
function originalAnswers(
  batch: BatchRow,
  rows: QuestionRow[],
  withSources: boolean,
  opts: ExportOptions,
): OriginalAnswer[] {
  return rows
    .filter((r) => deliverable(r, opts) && r.sheet !== null && r.rowNumber !== null)
    .map((r) => ({
      sheet: r.sheet ?? '',
      row: r.rowNumber ?? 0,
      answer: exportedAnswer(r),
      // A dropdown is not given an unapproved draft's Yes/No: the marked text goes to the comments instead.
      shortAnswer: unapprovedDraft(r) ? null : shortAnswerOf(r),
      // The value a reviewer picked on the card wins over the one the answer implies (write-choice.ts).
      choice: pickedChoice(r),
      source: withSources && !notApplicable(r) ? citation(storedSources(r)) : null,
      allowedValues: r.allowedValues,
      existingAnswer: r.existingAnswer,
      existingComment: r.existingComment,
      hint: r.answerHint,
      replacesExisting: replacesCustomerAnswer(batch, r),
    }));
}

/**
 * The customer's own file filled in, in its own format: an .xlsx or .xls workbook (as .xlsx), a CSV with its own
 * columns, or a Word document with the answers in its tables' answer cells. A Word table without an answer column,
 * or an original no longer stored, is a 422 with a sentence pointing to the exports that do work.
 */
export async function exportOriginalFile(
  storage: ObjectStorage,
  batch: BatchRow,
  rows: QuestionRow[],
  opts: ExportOptions,
): Promise<{ bytes: Uint8Array; extension: OriginalExtension }> {
  if (batch.sourceFormat === 'csv' && batch.storageKey) {
    const original = await readOriginal(storage, batch.storageKey);
    if (!original) throw originalMissing();
    const answers = originalAnswers(batch, rows, false, opts);
    const bytes = await exportOriginal(original, 'csv', batch.mapping as SheetMapping[], answers, {
      withSources: false,
    });
    return { bytes, extension: 'csv' };
  }
  if (canFillOriginal(batch)) return { bytes: await exportXlsx(storage, batch, rows, false, opts), extension: 'xlsx' };
  if (canFillWordOriginal(batch)) {
    const original = await readOriginal(storage, batch.storageKey ?? '');
    if (!original) throw originalMissing();
    const answers = originalAnswers(batch, rows, false, opts);
    const bytes = await exportOriginal(original, 'docx', batch.mapping as SheetMapping[], answers, {
      withSources: false,
    });
    return { bytes, extension: 'docx' };
  }
  throw new AppError(422, 'original_unsupported', unsupportedOriginal(batch));
}

function unsupportedOriginal(batch: BatchRow): string {
  if (batch.sourceFormat !== 'docx' || batch.storageKey === null) {
    return 'This assessment has no original file to fill in. Export Excel or CSV instead.';
  }
  const without = (batch.mapping as SheetMapping[]).filter((m) => wordAnswerColumn(m) === null).map((m) => m.sheet);
  const all = without.length === (batch.mapping as SheetMapping[]).length;
  // Writing the others and leaving these out would hand back a file that looks done but is not.
  return all
    ? 'This Word questionnaire has no answer column to write into; export Excel or CSV instead.'
    : `${without.join(', ')} of this Word questionnaire ${without.length === 1 ? 'has' : 'have'} no answer column to write into; export Excel or CSV instead.`;
}

/** The file types the customer's own file comes back as. */
export type OriginalExtension = NonNullable<BatchView['originalExport']>;

function originalMissing(): AppError {
  return new AppError(
    422,
    'original_missing',
    'The original file of this assessment is no longer stored, so it cannot be filled in. Export a new workbook with the questions and answers instead.',
  );
}

/**
 * Whether the filled file gets Verity's answer in place of the customer's own: only when the import chose to
 * replace pre-filled answers, and then only with one a person approved or Verity is sure of.
 */
export const replacesCustomerAnswer = (batch: Pick<BatchRow, 'prefilledAnswers' | 'sourceFormat'>, q: QuestionRow) =>
  batch.prefilledAnswers === 'replace' &&
  // The CSV and Word writers fill empty cells only: there a customer's answer always stays.
  (batch.sourceFormat === 'xlsx' || batch.sourceFormat === 'xls') &&
  (q.reviewState === 'approved' ||
    (q.answerOrigin === 'machine' && (q.confidence ?? 0) >= PREFILLED_REPLACE_CONFIDENCE));

/**
 * What an export's file name says it holds. Both kinds used to share one name, so the second download landed as
 * "… (1)" and the unreviewed file was easily the one sent to the customer.
 */
function exportKindLabel(opts: ExportOptions): string {
  if (opts.scope === 'approved') return 'approved answers only';
  if (opts.machine === false) return opts.drafts ? 'approved answers and drafts' : 'approved answers only';
  return opts.drafts ? 'all answers including unreviewed and drafts' : 'all answers including unreviewed';
}

/**
 * A file name for the export: after the batch (PRODUCT §12), without characters file systems refuse, then what it
 * holds ("Acme - approved answers only.xlsx").
 */
export function exportFileName(batch: BatchRow, extension: OriginalExtension, opts: ExportOptions): string {
  const base =
    batch.name
      // eslint-disable-next-line no-control-regex -- control characters are exactly what file names cannot hold
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() || 'assessment';
  return `${base.slice(0, 150)} - ${exportKindLabel(opts)}.${extension}`;
}
