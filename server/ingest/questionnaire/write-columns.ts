import type { ExportRow } from './write-types';

/** A column of the CSV and fresh-workbook exports: its header, its width in the workbook, and its value. */
export type ExportColumn = {
  header: string;
  width: number;
  value: (row: ExportRow, index: number) => string | number | null;
};

const NUMBER: ExportColumn = { header: '#', width: 6, value: (row, index) => row.orderIndex ?? index + 1 };
const CONTROL_ID: ExportColumn = { header: 'Control ID', width: 14, value: (row) => row.controlId ?? '' };
const REST: ExportColumn[] = [
  { header: 'Question', width: 60, value: (row) => row.question },
  { header: 'Answer', width: 80, value: (row) => row.answer },
  { header: 'Answer Type', width: 14, value: (row) => row.answerType },
  { header: 'Confidence', width: 12, value: (row) => row.confidence },
];
const STATUS: ExportColumn = { header: 'Status', width: 12, value: (row) => row.status ?? '' };
const SOURCES: ExportColumn = { header: 'Sources', width: 40, value: (row) => row.sources };

/**
 * The export's columns; "Control ID" only when some question has one (CAIQ-style questionnaires), "Status" only
 * when the rows carry one.
 */
export function exportColumns(rows: readonly ExportRow[]): ExportColumn[] {
  const withIds = rows.some((row) => (row.controlId ?? '').trim() !== '');
  const withStatus = rows.some((row) => !!row.status);
  return [NUMBER, ...(withIds ? [CONTROL_ID] : []), ...REST, ...(withStatus ? [STATUS] : []), SOURCES];
}
