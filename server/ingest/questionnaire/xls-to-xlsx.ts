import * as XLSX from '@e965/xlsx';
import { WriteBackError } from './write-types';

/**
 * An Excel 97–2003 workbook (or the HTML/SpreadsheetML an older system saves as .xls) as .xlsx with the same sheets
 * in the same order, their visibility, cells (formulas with their cached values), number formats, merges, column
 * widths and hidden rows and columns, so the answers can be written into it like into any .xlsx. Dropdowns are not
 * carried: SheetJS does not read them from these formats.
 */
export function xlsToXlsx(original: Uint8Array): Uint8Array {
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(original, {
      type: 'array',
      cellFormula: true,
      cellNF: true,
      cellStyles: true,
      cellDates: false,
      bookVBA: false,
    });
  } catch (error) {
    throw new WriteBackError('corrupt', `The original workbook could not be read again (${String(error)}).`);
  }
  const out: unknown = XLSX.write(workbook, { type: 'array', bookType: 'xlsx', compression: true, cellStyles: true });
  if (!(out instanceof ArrayBuffer))
    throw new WriteBackError('corrupt', 'The original workbook could not be converted.');
  return new Uint8Array(out);
}
