/** One worksheet as plain text: rows[r][c] is the cell Excel shows at row r + 1, column c + 1. */
export interface SheetRows {
  name: string;
  rows: string[][];
}

/**
 * Reads an .xlsx file in the browser. exceljs (about 1 MB) is loaded only here, when someone actually picks a
 * workbook, so the import page itself stays small.
 */
export async function readSpreadsheet(file: Blob): Promise<SheetRows[]> {
  const exceljs = await import('exceljs');
  const workbook = new exceljs.Workbook();
  await workbook.xlsx.load(await file.arrayBuffer());
  return workbook.worksheets.map((sheet) => {
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: false }, (cell, columnNumber) => {
        // `text` is what the cell displays: formula results, rich text and hyperlinks all come out as plain text.
        cells[columnNumber - 1] = cell.text;
      });
      rows[rowNumber - 1] = Array.from(cells, (cell) => cell ?? '');
    });
    // Row numbers in parse messages must match Excel's, so skipped empty rows stay as empty rows.
    return { name: sheet.name, rows: Array.from(rows, (row) => row ?? []) };
  });
}
