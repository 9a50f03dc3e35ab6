import { corrupt, passwordProtected } from './messages';
import { parseWorkbook, sheetsOf } from './sheetjs-sheets';
import type { RawSheet } from './types';

/**
 * Excel 97–2003 (.xls, BIFF in an OLE container), and the HTML or SpreadsheetML 2003 files that older systems
 * export under an .xls name. Read only, with SheetJS; dropdown values are not read from these formats.
 */
export function readXls(data: Uint8Array | string): { sheets: RawSheet[]; notes: string[] } {
  try {
    return sheetsOf(parseWorkbook(data));
  } catch (error) {
    if (error instanceof Error && /password|encrypt/i.test(error.message)) throw passwordProtected('xls');
    throw corrupt('xls', error);
  }
}
