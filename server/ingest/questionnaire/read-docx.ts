import { Parser } from 'htmlparser2';
import { docxToHtml } from '../docx-html';
import { corrupt } from './messages';
import { densify } from './sheetjs-sheets';
import { cleanCellText } from './text-patterns';
import type { CellRange, RawSheet } from './types';
import { assertSafeZip } from './zip-guard';

// Word caps a table at 63 columns; spans beyond these bounds are damage or mischief, not layout.
const MAX_COLSPAN = 64;
const MAX_ROWSPAN = 1_000;

/**
 * Word (.docx): every top-level table as a sheet named "Table N", one row per table row, with merged cells (gridSpan,
 * vMerge) kept in the master cell only so columns stay aligned. A table nested in a cell is read as that cell's text.
 * Paragraphs outside tables are not questions here.
 */
export async function readDocx(bytes: Uint8Array): Promise<{ sheets: RawSheet[]; notes: string[] }> {
  assertSafeZip(bytes);
  let html: string;
  try {
    html = await docxToHtml(bytes);
  } catch (error) {
    throw corrupt('docx', error);
  }
  return { sheets: tablesOf(html), notes: [] };
}

type TableState = {
  rows: (string[] | undefined)[];
  merges: CellRange[];
  /** "row:column" of cells covered by a rowspan from a row above. */
  covered: Set<string>;
  row: number;
  column: number;
  cell: { column: number; colspan: number; rowspan: number; parts: string[] } | null;
};

/** The tables of mammoth's HTML as sheets. */
export function tablesOf(html: string): RawSheet[] {
  const sheets: RawSheet[] = [];
  let table: TableState | null = null;
  let depth = 0; // table nesting; only depth 1 makes rows

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'table') {
          depth += 1;
          if (depth === 1) table = { rows: [], merges: [], covered: new Set(), row: -1, column: 0, cell: null };
          return;
        }
        const current = table;
        if (!current) return;
        if (depth > 1 || name === 'p' || name === 'br' || name === 'li') {
          if (current.cell && (name === 'p' || name === 'br' || name === 'li' || name === 'tr')) {
            current.cell.parts.push('\n');
          }
          return;
        }
        if (name === 'tr') {
          current.row += 1;
          current.column = 0;
        } else if ((name === 'td' || name === 'th') && current.row >= 0) {
          while (current.covered.has(`${current.row}:${current.column}`)) current.column += 1;
          current.cell = {
            column: current.column,
            colspan: span(attributes.colspan, MAX_COLSPAN),
            rowspan: span(attributes.rowspan, MAX_ROWSPAN),
            parts: [],
          };
        }
      },
      ontext(text) {
        table?.cell?.parts.push(text);
      },
      onclosetag(name) {
        if (name === 'table') {
          depth -= 1;
          if (depth === 0 && table) {
            sheets.push({
              name: `Table ${sheets.length + 1}`,
              hidden: false,
              rows: densify(table.rows),
              merges: table.merges,
              validations: [],
            });
            table = null;
          }
          return;
        }
        const current = table;
        if (!current?.cell || depth > 1 || (name !== 'td' && name !== 'th')) return;
        const { column, colspan, rowspan, parts } = current.cell;
        const row = (current.rows[current.row] ??= []);
        row[column] = cleanCellText(parts.join(''));
        for (let r = current.row + 1; r < current.row + rowspan; r += 1) {
          for (let c = column; c < column + colspan; c += 1) current.covered.add(`${r}:${c}`);
        }
        if (colspan > 1 || rowspan > 1) {
          current.merges.push({
            top: current.row,
            left: column,
            bottom: current.row + rowspan - 1,
            right: column + colspan - 1,
          });
        }
        current.column = column + colspan;
        current.cell = null;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return sheets;
}

function span(value: string | undefined, max: number): number {
  const parsed = Number.parseInt(value ?? '1', 10);
  return Number.isFinite(parsed) && parsed >= 1 ? Math.min(parsed, max) : 1;
}
