import { corrupt, passwordProtected } from './messages';
import { parseWorkbook, sheetsOf } from './sheetjs-sheets';
import type { RawSheet } from './types';
import { attachXlsListValidations } from './xls-validations';

/**
 * Excel 97–2003 (.xls, BIFF in an OLE container), and the HTML or SpreadsheetML 2003 files that older systems
 * export under an .xls name. Cells with SheetJS; the dropdowns of a BIFF8 workbook from its own records, since
 * SheetJS does not read them (the text exports have none).
 */
export function readXls(data: Uint8Array | string): { sheets: RawSheet[]; notes: string[] } {
  let parsed: ReturnType<typeof sheetsOf>;
  try {
    parsed = sheetsOf(parseWorkbook(data));
  } catch (error) {
    if (error instanceof Error && /password|encrypt/i.test(error.message)) throw passwordProtected('xls');
    throw corrupt('xls', error);
  }
  if (typeof data !== 'string') attachXlsListValidations(data, parsed.sheets);
  return parsed;
}
