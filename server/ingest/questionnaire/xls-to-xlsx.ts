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
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name];
    if (sheet) trimToUsedRange(sheet);
  }
  const out: unknown = XLSX.write(workbook, { type: 'array', bookType: 'xlsx', compression: true, cellStyles: true });
  if (!(out instanceof ArrayBuffer))
    throw new WriteBackError('corrupt', 'The original workbook could not be converted.');
  return new Uint8Array(out);
}

/**
 * Shrinks a sheet's extent to its cells and merges. An .xls often claims every row of the format (a row format set on
 * all 65,536 rows, a dimension record to the last one), and SheetJS writes every row of the extent: 6 s of the event
 * loop for one such sheet of 65 rows, against 0.3 s once the extent is the cells'.
 */
function trimToUsedRange(sheet: XLSX.WorkSheet): void {
  const ref = sheet['!ref'];
  if (typeof ref !== 'string') return;
  const range = XLSX.utils.decode_range(ref);
  let bottom = range.s.r;
  let right = range.s.c;
  for (const key of Object.keys(sheet)) {
    if (key.startsWith('!')) continue;
    const cell = XLSX.utils.decode_cell(key);
    bottom = Math.max(bottom, cell.r);
    right = Math.max(right, cell.c);
  }
  for (const merge of sheet['!merges'] ?? []) {
    bottom = Math.max(bottom, merge.e.r);
    right = Math.max(right, merge.e.c);
  }
  sheet['!ref'] = XLSX.utils.encode_range({ s: range.s, e: { r: bottom, c: right } });
}
