import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { xlsToXlsx } from './xls-to-xlsx';

function xlsClaimingEveryRow(): Uint8Array {
  const sheet = XLSX.utils.aoa_to_sheet([
    ['Ref', 'Question', 'Response'],
    ['1', 'Do you encrypt backups?', ''],
    ['2', 'Do you log administrator access?', 'Yes'],
  ]);
  // What older tools write: an extent to the format's last row and a row format on every row.
  sheet['!ref'] = 'A1:J65536';
  sheet['!rows'] = Array.from({ length: 65_536 }, () => ({ hpt: 15 }));
  sheet['!merges'] = [{ s: { r: 4, c: 0 }, e: { r: 4, c: 3 } }];
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, sheet, 'Questions');
  const out: unknown = XLSX.write(workbook, { bookType: 'xls', type: 'array' });
  if (!(out instanceof ArrayBuffer)) throw new Error('SheetJS did not return an ArrayBuffer');
  return new Uint8Array(out);
}

describe('an .xls converted for filling in', () => {
  it('keeps its cells and merges but not an extent that runs past them', () => {
    const original = xlsClaimingEveryRow();
    expect(XLSX.read(original, { type: 'array' }).Sheets.Questions?.['!ref']).toBe('A1:J65536');

    const converted = XLSX.read(xlsToXlsx(original), { type: 'array' }).Sheets.Questions;
    expect(converted?.['!ref']).toBe('A1:D5');
    expect(converted?.B2?.v).toBe('Do you encrypt backups?');
    expect(converted?.C3?.v).toBe('Yes');
    expect(converted?.['!merges']).toEqual([{ s: { r: 4, c: 0 }, e: { r: 4, c: 3 } }]);
  });
});
