import type { BatchView } from '../../../common/schemas/assessments';
import type { ExportFormat } from './api/export-assessment';

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

export type ExportChoiceValue = 'original' | 'xlsx' | 'xlsx-new' | 'csv';

/** One file the export dialog offers. */
export interface ExportChoice {
  value: ExportChoiceValue;
  format: ExportFormat;
  /** xlsx: a new workbook even though the customer's own could be filled. */
  generic: boolean;
  label: string;
  description: string;
}

/** The files an assessment can be exported as, the customer's own filled file first when there is one. */
export function exportChoices(batch: Pick<BatchView, 'canFillOriginal' | 'originalExport'>): ExportChoice[] {
  const choices: ExportChoice[] = [];
  if (batch.canFillOriginal) {
    choices.push(
      {
        value: 'xlsx',
        format: 'xlsx',
        generic: false,
        label: 'Excel (filled original)',
        description: "The customer's workbook with the answers filled in.",
      },
      {
        value: 'xlsx-new',
        format: 'xlsx',
        generic: true,
        label: 'Excel (new workbook)',
        description: 'A new workbook with the questions and answers.',
      },
    );
  } else {
    if (batch.originalExport === 'csv' || batch.originalExport === 'docx') {
      choices.push({
        value: 'original',
        format: 'original',
        generic: false,
        label: batch.originalExport === 'csv' ? 'CSV (filled original)' : 'Word (filled original)',
        description: "The customer's file with the answers filled in.",
      });
    }
    choices.push({
      value: 'xlsx',
      format: 'xlsx',
      generic: false,
      label: 'Excel',
      description: 'A workbook with the questions and answers.',
    });
  }
  choices.push({
    value: 'csv',
    format: 'csv',
    generic: false,
    label: 'CSV',
    description: 'One row per question.',
  });
  return choices;
}
