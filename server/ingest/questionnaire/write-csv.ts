import { toCsv } from '../../../common/import/csv-export';
import { exportColumns } from './write-columns';
import type { ExportRow } from './write-types';

/**
 * An assessment as CSV, through the library export's writer (common/import/csv-export): RFC 4180 quoting, CRLF,
 * a UTF-8 byte-order mark for Excel, and every cell that a spreadsheet would run as a formula (= + - @ tab CR, and
 * ' so the guard stays reversible) prefixed with `'`. The CSV import strips that guard again.
 */
export function answersToCsv(rows: readonly ExportRow[]): string {
  const columns = exportColumns(rows);
  const body = rows.map((row, index) =>
    columns.map((column) => {
      const value = column.value(row, index);
      return value === null ? '' : String(value);
    }),
  );
  return toCsv([columns.map((column) => column.header), ...body]);
}
