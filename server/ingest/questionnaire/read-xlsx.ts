import { corrupt } from './messages';
import { parseWorkbook, sheetsOf } from './sheetjs-sheets';
import type { RawSheet } from './types';
import { type DefinedName, attachListValidations } from './xlsx-validations';
import { assertSafeZip } from './zip-guard';

/**
 * Excel (.xlsx, .xlsm): every sheet, hidden ones included, with merges and the values of each dropdown. The archive
 * is checked by the zip guard before anything is inflated. Cells are read with SheetJS rather than exceljs: exceljs
 * materialises every cell a data validation covers (see xlsx-validations.ts), which a whole-column dropdown turns
 * into seconds and hundreds of megabytes for a 10 kB file.
 */
export function readXlsx(bytes: Uint8Array): { sheets: RawSheet[]; notes: string[] } {
  assertSafeZip(bytes);
  let parsed: ReturnType<typeof sheetsOf>;
  let names: DefinedName[];
  try {
    const workbook = parseWorkbook(bytes);
    parsed = sheetsOf(workbook);
    names = (workbook.Workbook?.Names ?? []).map((name) => ({
      name: name.Name,
      ref: name.Ref,
      sheetIndex: typeof name.Sheet === 'number' ? name.Sheet : null,
    }));
  } catch (error) {
    throw corrupt('xlsx', error);
  }
  attachListValidations(bytes, parsed.sheets, names);
  return parsed;
}
