import { unzipSync } from 'fflate';
import { Parser } from 'htmlparser2';
import type { CellRange, ListValidation, RawSheet } from './types';
import { parseRange, parseSheetReference } from './cell-refs';

// Dropdown lists are read from the sheet XML directly. SheetJS's community build ignores data validations, and
// exceljs expands each validation range into one object per cell: a whole-column dropdown ("D2:D1048576", which is
// how most questionnaires are made) costs it seconds and hundreds of megabytes, and a crafted one never finishes.
// Here a validation stays a list of ranges, whatever their size.

/** A workbook-level name ("YesNo" → "Lists!$A$1:$A$3"), scoped to one sheet (its index) or to the workbook. */
export type DefinedName = { name: string; ref: string; sheetIndex: number | null };

const MAX_VALUES = 500;

/**
 * Fills `validations` of each sheet from the workbook's XML: list validations only (the ones that make a dropdown),
 * both the classic `<dataValidation>` and the `<x14:dataValidation>` Excel writes when the list lives on another
 * sheet. A list is resolved to its values: a literal ("Yes,No,N/A"), a range ("Lists!$A$1:$A$3", on the same sheet
 * when unqualified) or a defined name. Anything else (INDIRECT, OFFSET, another workbook) is skipped. Never throws:
 * a dropdown it cannot read only means the answer is free text.
 */
export function attachListValidations(bytes: Uint8Array, sheets: RawSheet[], names: readonly DefinedName[]): void {
  let parts: Record<string, Uint8Array>;
  try {
    const paths = worksheetPaths(bytes);
    const wanted = new Set(paths.values());
    parts = unzipSync(bytes, { filter: (file) => wanted.has(file.name) });
    sheets.forEach((sheet, index) => {
      const path = paths.get(sheet.name);
      const xml = path ? parts[path] : undefined;
      if (!xml) return;
      sheet.validations = readSheetValidations(xml)
        .map((found) => resolve(found, index, sheets, names))
        .filter((validation): validation is ListValidation => validation !== null);
    });
  } catch {
    // A part we cannot parse: the sheets were read by SheetJS already; they just have no dropdowns.
  }
}

/** Sheet name → path of its XML part, from xl/workbook.xml and its relationships. */
function worksheetPaths(bytes: Uint8Array): Map<string, string> {
  const parts = unzipSync(bytes, {
    filter: (file) => file.name === 'xl/workbook.xml' || file.name === 'xl/_rels/workbook.xml.rels',
  });
  const workbook = parts['xl/workbook.xml'];
  const rels = parts['xl/_rels/workbook.xml.rels'];
  const paths = new Map<string, string>();
  if (!workbook || !rels) return paths;

  const targets = new Map<string, string>();
  eachElement(new TextDecoder().decode(rels), (name, attributes) => {
    if (name !== 'Relationship' || !attributes.Id || !attributes.Target) return;
    const target = attributes.Target.replace(/\\/g, '/');
    targets.set(attributes.Id, target.startsWith('/') ? target.slice(1) : normalizePath(`xl/${target}`));
  });
  eachElement(new TextDecoder().decode(workbook), (name, attributes) => {
    if (name !== 'sheet' || attributes.name === undefined) return;
    const id = Object.entries(attributes).find(([key]) => key === 'r:id' || key.endsWith(':id'))?.[1];
    const target = id ? targets.get(id) : undefined;
    if (target) paths.set(attributes.name, target);
  });
  return paths;
}

function normalizePath(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

type FoundValidation = { sqref: string; formula: string };

// Validations come after the cells in a worksheet part (the schema fixes the order), so only the tail after
// </sheetData> is decoded: the cells can be tens of megabytes, the validations a few hundred bytes.
const SHEET_DATA_END = new TextEncoder().encode('sheetData>');

function readSheetValidations(xml: Uint8Array): FoundValidation[] {
  const tailStart = Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength).lastIndexOf(SHEET_DATA_END);
  const tail = new TextDecoder().decode(tailStart === -1 ? xml : xml.subarray(tailStart + SHEET_DATA_END.length));
  const found: FoundValidation[] = [];
  let current: (FoundValidation & { isList: boolean }) | null = null;
  let capture: 'formula' | 'sqref' | null = null;
  let depth = 0; // inside <formula1>, the text of nested <xm:f> counts too

  const parser = new Parser(
    {
      onopentag(tag, attributes) {
        const name = localName(tag);
        if (name === 'dataValidation') {
          current = { sqref: attributes.sqref ?? '', formula: '', isList: attributes.type === 'list' };
        } else if (current && name === 'formula1') {
          capture = 'formula';
          depth = 1;
        } else if (current && name === 'sqref') {
          capture = 'sqref';
        } else if (capture === 'formula') {
          depth += 1;
        }
      },
      ontext(text) {
        if (!current || !capture) return;
        if (capture === 'formula') current.formula += text;
        else current.sqref += text;
      },
      onclosetag(tag) {
        const name = localName(tag);
        if (name === 'dataValidation') {
          if (current?.isList) found.push({ sqref: current.sqref, formula: current.formula });
          current = null;
          capture = null;
        } else if (capture === 'formula') {
          depth -= 1;
          if (depth === 0) capture = null;
        } else if (capture === 'sqref' && name === 'sqref') {
          capture = null;
        }
      },
    },
    { xmlMode: true },
  );
  parser.end(tail);
  return found;
}

function eachElement(xml: string, visit: (name: string, attributes: Record<string, string>) => void): void {
  const parser = new Parser({ onopentag: (tag, attributes) => visit(localName(tag), attributes) }, { xmlMode: true });
  parser.end(xml);
}

function localName(tag: string): string {
  const colon = tag.indexOf(':');
  return colon === -1 ? tag : tag.slice(colon + 1);
}

function resolve(
  found: FoundValidation,
  sheetIndex: number,
  sheets: readonly RawSheet[],
  names: readonly DefinedName[],
): ListValidation | null {
  const ranges = found.sqref
    .trim()
    .split(/\s+/)
    .map(parseRange)
    .filter((range): range is CellRange => range !== null);
  if (ranges.length === 0) return null;
  const values = listValues(found.formula, sheetIndex, sheets, names, 0);
  return values && values.length > 0 ? { ranges, values } : null;
}

export function listValues(
  formula: string,
  sheetIndex: number,
  sheets: readonly RawSheet[],
  names: readonly DefinedName[],
  depth: number,
): string[] | null {
  const text = formula.trim().replace(/^=/, '');
  if (text === '' || depth > 3) return null;
  const literal = /^"(.*)"$/s.exec(text);
  if (literal?.[1] !== undefined) return unique(literal[1].split(','));

  const named =
    names.find((name) => name.sheetIndex === sheetIndex && sameName(name.name, text)) ??
    names.find((name) => name.sheetIndex === null && sameName(name.name, text));
  if (named) return listValues(named.ref, named.sheetIndex ?? sheetIndex, sheets, names, depth + 1);

  const reference = parseSheetReference(text);
  if (!reference) return null;
  const target = reference.sheet === null ? sheets[sheetIndex] : sheets.find((s) => s.name === reference.sheet);
  return target ? unique(valuesIn(target, reference.range)) : null;
}

function sameName(a: string, b: string): boolean {
  return a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
}

function valuesIn(sheet: RawSheet, range: CellRange): string[] {
  const values: string[] = [];
  const bottom = Math.min(range.bottom, sheet.rows.length - 1);
  for (let r = range.top; r <= bottom && values.length < MAX_VALUES; r += 1) {
    const row = sheet.rows[r] ?? [];
    const right = Math.min(range.right, row.length - 1);
    for (let c = range.left; c <= right && values.length < MAX_VALUES; c += 1) values.push(row[c] ?? '');
  }
  return values;
}

function unique(values: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    const trimmed = value.trim();
    if (trimmed !== '' && seen.size < MAX_VALUES) seen.add(trimmed);
  }
  return [...seen];
}

/** The allowed values of the dropdown covering a cell (0-based), or null when it has none. */
export function allowedValuesAt(validations: readonly ListValidation[], row: number, column: number): string[] | null {
  for (const validation of validations) {
    for (const range of validation.ranges) {
      if (row >= range.top && row <= range.bottom && column >= range.left && column <= range.right) {
        return validation.values;
      }
    }
  }
  return null;
}
