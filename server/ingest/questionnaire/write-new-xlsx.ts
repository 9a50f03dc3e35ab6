import ExcelJS from 'exceljs';
import { exportColumns } from './write-columns';
import { cleanCellText } from './write-text';
import type { ExportRow } from './write-types';

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F3A5F' } };
const THIN: Partial<ExcelJS.Border> = { style: 'thin', color: { argb: 'FFD0D7DE' } };
const BORDERS: Partial<ExcelJS.Borders> = { top: THIN, left: THIN, bottom: THIN, right: THIN };

/**
 * A new workbook holding the assessment, for sources that cannot be filled in place (.xls, CSV, Word): one table
 * with a frozen, filterable header, wrapped text and fixed widths. Every text cell is a string cell, so nothing is
 * ever evaluated as a formula (no CSV-style guard needed); text is cleaned and cut to Excel's cell limit.
 */
export async function answersToNewXlsx(batchName: string, rows: readonly ExportRow[]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Verity';
  workbook.title = cleanCellText(batchName);
  const sheet = workbook.addWorksheet(sheetName(batchName), { views: [{ state: 'frozen', ySplit: 1 }] });
  const columns = exportColumns(rows);
  sheet.columns = columns.map((column) => ({ header: column.header, width: column.width }));
  rows.forEach((row, index) => {
    const values = columns.map((column) => {
      const value = column.value(row, index);
      return typeof value === 'string' ? cleanCellText(value) : value;
    });
    sheet.addRow(values);
  });
  sheet.eachRow((row, number) => {
    row.eachCell({ includeEmpty: true }, (cell) => {
      cell.border = BORDERS;
      cell.alignment = { wrapText: true, vertical: 'top' };
      if (number === 1) {
        cell.font = { bold: true, color: { argb: 'FFFFFFFF' } };
        cell.fill = HEADER_FILL;
      }
    });
  });
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer);
}

/** A valid worksheet name from the batch name: at most 31 characters, none of \ / ? * [ ] :, not quoted. */
export function sheetName(batchName: string): string {
  const cleaned = batchName
    // eslint-disable-next-line no-control-regex -- control characters are not allowed in sheet names
    .replace(/[\\/?*[\]:\u0000-\u001f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^'+|'+$/g, '');
  // 31 UTF-16 units, as Excel counts, without splitting an emoji's surrogate pair.
  let cut = '';
  for (const ch of cleaned) {
    if (cut.length + ch.length > 31) break;
    cut += ch;
  }
  cut = cut.trim();
  return cut === '' || cut.toLowerCase() === 'history' ? 'Assessment' : cut;
}
