import type { BatchView } from '../../../common/schemas/assessments';

/** The Excel export is the customer's own workbook filled in when the assessment came from an .xlsx file. */
export function excelExportLabel(batch: Pick<BatchView, 'canFillOriginal'>): string {
  return batch.canFillOriginal ? 'Export Excel (filled original)' : 'Export Excel';
}

/**
 * The customer's own non-Excel file filled in (format=original), when the assessment came from one: a CSV in its
 * own columns, or a Word questionnaire with the answers in its tables. Null when there is none to offer.
 */
export function originalExportLabel(batch: Pick<BatchView, 'originalExport'>): string | null {
  if (batch.originalExport === 'csv') return 'Export CSV (filled original)';
  if (batch.originalExport === 'docx') return 'Export Word (filled original)';
  return null;
}
