import type { BatchView } from '../../../common/schemas/assessments';

/** The Excel export is the customer's own workbook filled in when the assessment came from an .xlsx file. */
export function excelExportLabel(batch: Pick<BatchView, 'canFillOriginal'>): string {
  return batch.canFillOriginal ? 'Export Excel (filled original)' : 'Export Excel';
}
