import * as XLSX from '@e965/xlsx';
import { columnLetters } from './cell-refs';
import type { CellRange, ListValidation, RawSheet } from './types';
import { type DefinedName, listValues } from './xlsx-validations';

// SheetJS reads the cells of an Excel 97–2003 workbook but not its data validations, so an interview-style .xls
// whose only sign of an answer column is its dropdown looked like a sheet without answers. This reads the list
// validations from the BIFF8 records themselves ([MS-XLS] 2.4.116 Dv, 2.4.28 BoundSheet8, 2.4.150 Lbl,
// 2.4.106 ExternSheet, 2.4.271 SupBook) and resolves them with the same rules as an .xlsx's.

const RECORD = {
  bof: 0x0809,
  eof: 0x000a,
  boundSheet: 0x0085,
  externSheet: 0x0017,
  supBook: 0x01ae,
  name: 0x0018,
  dv: 0x01be,
  continue: 0x003c,
  filePass: 0x002f,
} as const;

const BIFF8 = 0x0600;
const LIST = 3;
const STRING_LOOKUP = 0x80;
const SELF_REFERENCE = 0x0401;
const BUILTIN_NAME = 0x0020;
// A bound on what one sheet can make us read: a crafted file may repeat records without end.
const MAX_VALIDATIONS_PER_SHEET = 4_096;
const MAX_RANGES_PER_VALIDATION = 1_024;

type Record = { type: number; offset: number; data: Uint8Array };

type Operand =
  | { kind: 'list'; values: string[] }
  | { kind: 'area'; ixti: number | null; range: CellRange }
  | { kind: 'name'; index: number };

type FoundValidation = { ranges: CellRange[]; formula: Operand };

type Lbl = { name: string; sheet: number; formula: Operand | null };
/** A defined name that cannot be read still takes its place: formulas name one by its position. */
const UNREADABLE_NAME: Lbl = { name: '', sheet: 0, formula: null };

/**
 * Fills `validations` of each sheet of a BIFF8 workbook with its list validations (dropdowns): a literal list, a
 * range on the same or another sheet, or a defined name. Anything else (INDIRECT, OFFSET, another workbook) is
 * skipped. Never throws: a dropdown it cannot read only means the answer is free text, as before.
 */
export function attachXlsListValidations(bytes: Uint8Array, sheets: RawSheet[]): void {
  try {
    const stream = workbookStream(bytes);
    if (stream) readValidations(stream, sheets);
  } catch {
    // A record we cannot parse: the cells were read by SheetJS already; the sheets just have no dropdowns.
  }
}

function workbookStream(bytes: Uint8Array): Uint8Array | null {
  const container = XLSX.CFB.read(bytes, { type: 'array' });
  const entry = XLSX.CFB.find(container, 'Workbook') ?? XLSX.CFB.find(container, 'Book');
  const content: unknown = entry?.content;
  if (content instanceof Uint8Array) return content;
  return Array.isArray(content) ? Uint8Array.from(content as number[]) : null;
}

function* records(stream: Uint8Array): Generator<Record> {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  let offset = 0;
  while (offset + 4 <= stream.byteLength) {
    const type = view.getUint16(offset, true);
    const size = view.getUint16(offset + 2, true);
    if (offset + 4 + size > stream.byteLength) return;
    yield { type, offset, data: stream.subarray(offset + 4, offset + 4 + size) };
    offset += 4 + size;
  }
}

function readValidations(stream: Uint8Array, sheets: RawSheet[]): void {
  const sheetAt = new Map<number, string>(); // offset of a sheet's BOF → its name
  const sheetNames: string[] = [];
  const supBooks: boolean[] = []; // whether each SupBook is this workbook
  let xti: { supBook: number; firstSheet: number }[] = [];
  const lbls: Lbl[] = [];
  const found = new Map<string, FoundValidation[]>();
  // Substreams nest: a chart embedded in a sheet is a BOF…EOF of its own before the sheet's dropdowns.
  const open: { sheet: string | null; globals: boolean }[] = [];
  let externSheet: Uint8Array[] = [];
  let previous: number | null = null;

  for (const record of records(stream)) {
    const data = record.data;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const top = open.at(-1);
    const current = top?.sheet ?? null;
    const inGlobals = top?.globals ?? false;
    if (record.type === RECORD.bof) {
      if (data.byteLength < 4 || view.getUint16(0, true) !== BIFF8) return; // BIFF5 and older: not read
      const outermost = open.length === 0;
      open.push({
        sheet: outermost ? (sheetAt.get(record.offset) ?? null) : null,
        globals: outermost && view.getUint16(2, true) === 0x0005,
      });
    } else if (record.type === RECORD.eof) {
      open.pop();
    } else if (record.type === RECORD.filePass) {
      return;
    }
    // A record shorter than its fields say is skipped alone: the others still count.
    try {
      switch (record.type) {
        case RECORD.boundSheet: {
          const name = shortString(data, 6);
          if (name === null) break;
          sheetAt.set(view.getUint32(0, true), name.text);
          sheetNames.push(name.text);
          break;
        }
        case RECORD.supBook:
          if (inGlobals) supBooks.push(data.byteLength >= 4 && view.getUint16(2, true) === SELF_REFERENCE);
          break;
        case RECORD.externSheet:
          if (inGlobals) externSheet = [data];
          break;
        case RECORD.continue:
          // An ExternSheet longer than one record goes on in CONTINUE records, an entry possibly cut between them.
          if (inGlobals && previous === RECORD.externSheet) externSheet.push(data);
          break;
        case RECORD.name:
          if (inGlobals) lbls.push(nameRecord(data) ?? UNREADABLE_NAME);
          break;
        case RECORD.dv: {
          if (current === null) break;
          const list = found.get(current) ?? [];
          if (list.length >= MAX_VALIDATIONS_PER_SHEET) break;
          const validation = dvRecord(data);
          if (validation) list.push(validation);
          found.set(current, list);
          break;
        }
      }
    } catch {
      if (record.type === RECORD.name && inGlobals) lbls.push(UNREADABLE_NAME);
    }
    if (record.type !== RECORD.continue) previous = record.type;
  }
  if (externSheet.length > 0) xti = externSheets(Buffer.concat(externSheet));

  // A reference in a formula names its sheet through ExternSheet → SupBook; only this workbook's sheets are read.
  const sheetOfXti = (ixti: number | null): string | null | undefined => {
    if (ixti === null) return null;
    const entry = xti[ixti];
    if (!entry || !supBooks[entry.supBook]) return undefined;
    return sheetNames[entry.firstSheet];
  };
  const reference = (operand: Extract<Operand, { kind: 'area' }>): string | null => {
    const sheet = sheetOfXti(operand.ixti);
    if (sheet === undefined) return null;
    const { top, left, bottom, right } = operand.range;
    const area = `$${columnLetters(left)}$${top + 1}:$${columnLetters(right)}$${bottom + 1}`;
    return sheet === null ? area : `'${sheet.replace(/'/g, "''")}'!${area}`;
  };
  const formulaText = (operand: Operand): string | null => {
    if (operand.kind === 'area') return reference(operand);
    if (operand.kind === 'name') return lbls[operand.index - 1]?.name ?? null;
    return null;
  };

  const names: DefinedName[] = [];
  for (const lbl of lbls) {
    const ref = lbl.formula ? formulaText(lbl.formula) : null;
    if (ref === null) continue;
    const sheetName = lbl.sheet === 0 ? null : sheetNames[lbl.sheet - 1];
    const sheetIndex =
      sheetName === undefined || sheetName === null ? null : sheets.findIndex((s) => s.name === sheetName);
    if (sheetName !== null && (sheetIndex === null || sheetIndex < 0)) continue;
    names.push({ name: lbl.name, ref, sheetIndex });
  }

  sheets.forEach((sheet, index) => {
    const validations: ListValidation[] = [];
    for (const validation of found.get(sheet.name) ?? []) {
      const { formula } = validation;
      const text = formula.kind === 'list' ? null : formulaText(formula);
      const values = formula.kind === 'list' ? formula.values : text ? listValues(text, index, sheets, names, 0) : null;
      if (values && values.length > 0) validations.push({ ranges: validation.ranges, values });
    }
    sheet.validations = validations;
  });
}

function externSheets(data: Uint8Array): { supBook: number; firstSheet: number }[] {
  if (data.byteLength < 2) return [];
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const count = view.getUint16(0, true);
  const out: { supBook: number; firstSheet: number }[] = [];
  for (let i = 0; i < count && 2 + i * 6 + 6 <= data.byteLength; i += 1) {
    const at = 2 + i * 6;
    out.push({ supBook: view.getUint16(at, true), firstSheet: view.getInt16(at + 2, true) });
  }
  return out;
}

function nameRecord(data: Uint8Array): Lbl | null {
  if (data.byteLength < 15) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const flags = view.getUint16(0, true);
  const length = data[3] ?? 0;
  const cce = view.getUint16(4, true);
  const sheet = view.getUint16(8, true);
  const name = flags & BUILTIN_NAME ? null : characters(data, 15, length, (data[14] ?? 0) & 1);
  if (name === null) return { name: '', sheet, formula: null };
  const formulaStart = name.end;
  return { name: name.text, sheet, formula: operand(data.subarray(formulaStart, formulaStart + cce)) };
}

/** A Dv record: only list validations; its cell ranges and the formula giving the list. */
function dvRecord(data: Uint8Array): FoundValidation | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const flags = view.getUint32(0, true);
  if ((flags & 0x0f) !== LIST) return null;
  let at = 4;
  for (let i = 0; i < 4; i += 1) {
    const text = unicodeString(data, at);
    if (!text) return null;
    at = text.end;
  }
  const cce1 = view.getUint16(at, true);
  const rgce1 = data.subarray(at + 4, at + 4 + cce1);
  at += 4 + cce1;
  const cce2 = view.getUint16(at, true);
  at += 4 + cce2;
  const count = Math.min(view.getUint16(at, true), MAX_RANGES_PER_VALIDATION);
  at += 2;
  const ranges: CellRange[] = [];
  for (let i = 0; i < count && at + 8 <= data.byteLength; i += 1, at += 8) {
    ranges.push({
      top: view.getUint16(at, true),
      bottom: view.getUint16(at + 2, true),
      left: view.getUint16(at + 4, true),
      right: view.getUint16(at + 6, true),
    });
  }
  if (ranges.length === 0) return null;
  const formula = flags & STRING_LOOKUP ? literalList(rgce1) : operand(rgce1);
  return formula ? { ranges, formula } : null;
}

/** "Yes\0No\0N/A" in a PtgStr: an explicit list typed into the validation dialog. */
function literalList(rgce: Uint8Array): Operand | null {
  if (rgce[0] !== 0x17) return null;
  const text = characters(rgce, 3, rgce[1] ?? 0, (rgce[2] ?? 0) & 1);
  if (!text) return null;
  const values = [...new Set(text.text.split('\0').map((value) => value.trim()))].filter((value) => value !== '');
  return { kind: 'list', values };
}

/** The one operand a list's formula may be: a cell, an area (on this or another sheet) or a defined name. */
function operand(rgce: Uint8Array): Operand | null {
  const view = new DataView(rgce.buffer, rgce.byteOffset, rgce.byteLength);
  const ptg = rgce[0] ?? 0;
  // The class bits (0x20 reference, 0x40 value, 0x60 array) do not change what is referred to.
  const base = ptg & 0x9f;
  const column = (at: number) => view.getUint16(at, true) & 0x3fff;
  switch (base) {
    case 0x04: // PtgRef
      if (rgce.byteLength < 5) return null;
      return { kind: 'area', ixti: null, range: cell(view.getUint16(1, true), column(3)) };
    case 0x05: // PtgArea
      if (rgce.byteLength < 9) return null;
      return {
        kind: 'area',
        ixti: null,
        range: area(view.getUint16(1, true), view.getUint16(3, true), column(5), column(7)),
      };
    case 0x1a: // PtgRef3d
      if (rgce.byteLength < 7) return null;
      return { kind: 'area', ixti: view.getUint16(1, true), range: cell(view.getUint16(3, true), column(5)) };
    case 0x1b: // PtgArea3d
      if (rgce.byteLength < 11) return null;
      return {
        kind: 'area',
        ixti: view.getUint16(1, true),
        range: area(view.getUint16(3, true), view.getUint16(5, true), column(7), column(9)),
      };
    case 0x03: // PtgName
      if (rgce.byteLength < 5) return null;
      return { kind: 'name', index: view.getUint32(1, true) };
    default:
      return null;
  }
}

function cell(row: number, column: number): CellRange {
  return { top: row, bottom: row, left: column, right: column };
}

function area(top: number, bottom: number, left: number, right: number): CellRange {
  return {
    top: Math.min(top, bottom),
    bottom: Math.max(top, bottom),
    left: Math.min(left, right),
    right: Math.max(left, right),
  };
}

/** XLUnicodeString: a 16-bit count, a flags byte, then the characters. */
function unicodeString(data: Uint8Array, at: number): { text: string; end: number } | null {
  if (at + 3 > data.byteLength) return null;
  return characters(data, at + 3, (data[at] ?? 0) | ((data[at + 1] ?? 0) << 8), (data[at + 2] ?? 0) & 1);
}

/** ShortXLUnicodeString: an 8-bit count, a flags byte, then the characters. */
function shortString(data: Uint8Array, at: number): { text: string; end: number } | null {
  if (at + 2 > data.byteLength) return null;
  return characters(data, at + 2, data[at] ?? 0, (data[at + 1] ?? 0) & 1);
}

/** `count` characters from `at`: UTF-16LE when `wide`, else one byte each (Latin-1, the "compressed" form). */
function characters(data: Uint8Array, at: number, count: number, wide: number): { text: string; end: number } | null {
  const end = at + count * (wide ? 2 : 1);
  if (end > data.byteLength) return null;
  const bytes = data.subarray(at, end);
  const text = wide ? new TextDecoder('utf-16le').decode(bytes) : new TextDecoder('latin1').decode(bytes);
  return { text, end };
}
