import ExcelJS from 'exceljs';
import { strFromU8, strToU8, zipSync } from 'fflate';
import Papa from 'papaparse';
import { columnIndex } from '../../server/ingest/questionnaire/cell-refs';
import { readXlsx } from '../../server/ingest/questionnaire/read-xlsx';
import { openPackage, readWorkbook } from '../../server/ingest/questionnaire/write-package';
import { allowedValuesAt } from '../../server/ingest/questionnaire/xlsx-validations';
import type { FileTruth } from './truth';

export type Fidelity = {
  filled: boolean;
  why?: string;
  /** Cells the export changed inside the answer/comments cells of question rows or in columns it added. */
  written: number;
  outsideTarget: number;
  /** Pre-filled answer or comments cells (not template hints) the export changed. */
  overwrites: number;
  /** Written cells whose dropdown list does not hold the written value. */
  badDropdown: number;
  /**
   * Rows answered by a mark under one of several choice columns (Yes / No / N/A) whose choice cells the export
   * changed: a second mark, or the customer's mark replaced.
   */
  marksOnAnswered: number;
  structureChanges: string[];
  samples: string[];
};

/** A filled export with nothing counted yet; `why` makes it one that could not be filled. */
export function emptyFidelity(why?: string): Fidelity {
  return {
    filled: why === undefined,
    ...(why === undefined ? {} : { why }),
    written: 0,
    outsideTarget: 0,
    overwrites: 0,
    badDropdown: 0,
    marksOnAnswered: 0,
    structureChanges: [],
    samples: [],
  };
}

// exceljs expands every cell a dropdown covers: a validation over N1:XFD1048576 (as a scoring sheet of a real
// workbook has) is seventeen billion cells and never loads. The validations are left out of what exceljs loads and
// compared as each sheet's own XML instead, which is stricter anyway.
const VALIDATIONS = /<dataValidations[\s>][\s\S]*?<\/dataValidations>|<dataValidations[^>]*\/>/g;

type Loaded = { workbook: ExcelJS.Workbook; validations: Map<string, string> };

async function load(bytes: Uint8Array): Promise<Loaded> {
  const parts = openPackage(bytes);
  const validations = new Map<string, string>();
  for (const sheet of readWorkbook(parts).sheets) {
    const data = parts[sheet.part];
    if (!data) continue;
    const xml = strFromU8(data);
    validations.set(
      sheet.name,
      [...xml.matchAll(/<(?:[\w.-]+:)?dataValidations[\s\S]*?<\/(?:[\w.-]+:)?dataValidations>/g)].join(''),
    );
    parts[sheet.part] = strToU8(xml.replace(VALIDATIONS, ''));
  }
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(zipSync(parts)) as unknown as ExcelJS.Buffer);
  return { workbook, validations };
}

const valueText = (cell: ExcelJS.Cell | undefined): string => {
  const value = cell?.value;
  if (value === null || value === undefined || value === '') return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
};

function cells(sheet: ExcelJS.Worksheet): Map<string, string> {
  const map = new Map<string, string>();
  sheet.eachRow({ includeEmpty: false }, (row, r) => {
    row.eachCell({ includeEmpty: false }, (cell, c) => {
      // exceljs reports a merged range's value on every cell of it; only the top-left cell holds it.
      if (cell.isMerged && cell.master !== cell) return;
      const text = valueText(cell);
      if (text !== '') map.set(`${r}:${c}`, text);
    });
  });
  return map;
}

function columnsOf(sheet: ExcelJS.Worksheet, upTo: number): string {
  const out: string[] = [];
  for (let c = 1; c <= upTo; c += 1) {
    const column = sheet.getColumn(c);
    out.push(`${c}:${column.width ?? ''}:${column.hidden ? 'h' : ''}`);
  }
  return out.join(',');
}

/**
 * The export against the original: what changed, where, and whether the layout survived. Only .xlsx is compared
 * cell by cell here (an .xls original is compared by the sheets the export keeps).
 */
export async function compareWorkbooks(
  original: Uint8Array,
  format: FileTruth['format'],
  exported: Uint8Array,
  truth: FileTruth,
  detectedChoices: ReadonlyMap<string, readonly number[]> = new Map(),
): Promise<Fidelity> {
  const result = emptyFidelity();
  if (format !== 'xlsx') return emptyFidelity(`no comparison for ${format}`);
  const { workbook: before, validations: validationsBefore } = await load(original);
  const { workbook: after, validations: validationsAfter } = await load(exported);
  const names = (wb: ExcelJS.Workbook) => wb.worksheets.map((s) => `${s.name}${s.state === 'visible' ? '' : '(h)'}`);
  if (names(before).join('|') !== names(after).join('|')) {
    result.structureChanges.push(`sheets ${names(before).join(',')} → ${names(after).join(',')}`);
  }
  const exportedRaw = readXlsx(exported).sheets;
  for (const sheet of before.worksheets) {
    const other = after.getWorksheet(sheet.name);
    if (!other) continue;
    const sheetTruth = truth.sheets[sheet.name];
    const width = sheet.columnCount;
    const target = new Set<number>();
    for (const letter of [
      sheetTruth?.answerColumn,
      sheetTruth?.commentsColumn,
      ...(sheetTruth?.answerChoiceColumns ?? []),
    ]) {
      if (letter) target.add(columnIndex(letter) + 1);
    }
    const rows = new Set([...(sheetTruth?.questionRows ?? []), ...(sheetTruth?.optionalRows ?? [])]);
    const placeholders = new Set(sheetTruth?.placeholderRows ?? []);
    const a = cells(sheet);
    const b = cells(other);
    const raw = exportedRaw.find((s) => s.name === sheet.name);
    for (const key of new Set([...a.keys(), ...b.keys()])) {
      const was = a.get(key) ?? '';
      const now = b.get(key) ?? '';
      if (was === now) continue;
      const [r, c] = key.split(':').map(Number) as [number, number];
      const added = c > width && (rows.has(r) || r === sheetTruth?.headerRow);
      const inTarget = rows.has(r) && target.has(c);
      if (!inTarget && !added) {
        result.outsideTarget += 1;
        if (result.samples.length < 4)
          result.samples.push(`${sheet.name}!R${r}C${c} "${was.slice(0, 30)}"→"${now.slice(0, 30)}"`);
        continue;
      }
      result.written += 1;
      if (inTarget && was.trim() !== '' && !placeholders.has(r)) {
        result.overwrites += 1;
        if (result.samples.length < 4) result.samples.push(`overwrote ${sheet.name}!R${r}C${c} "${was.slice(0, 30)}"`);
      }
      const allowed = raw ? allowedValuesAt(raw.validations, r - 1, c - 1) : null;
      if (allowed && now !== '' && !allowed.some((v) => v.trim().toLowerCase() === now.trim().toLowerCase())) {
        result.badDropdown += 1;
        if (result.samples.length < 4) result.samples.push(`dropdown ${sheet.name}!R${r}C${c} "${now.slice(0, 30)}"`);
      }
    }
    // The truth's choice columns and those the product found: a row marked under either set is answered.
    const choices = new Set<number>([
      ...(sheetTruth?.answerChoiceColumns ?? []).map((letter) => columnIndex(letter) + 1),
      ...(detectedChoices.get(sheet.name) ?? []).map((column) => column + 1),
    ]);
    result.marksOnAnswered += marksOnAnswered(a, b, rows, choices, result.samples, sheet.name);
    const merges = (s: ExcelJS.Worksheet) => [...(s.model.merges ?? [])].sort().join(',');
    if (merges(sheet) !== merges(other)) result.structureChanges.push(`${sheet.name}: merges`);
    if (validationsBefore.get(sheet.name) !== validationsAfter.get(sheet.name)) {
      result.structureChanges.push(`${sheet.name}: validations`);
    }
    if (columnsOf(sheet, width) !== columnsOf(other, width)) result.structureChanges.push(`${sheet.name}: columns`);
    if (sheet.state !== other.state) result.structureChanges.push(`${sheet.name}: visibility`);
  }
  return result;
}

/** Question rows already marked under some choice column whose choice cells changed. */
function marksOnAnswered(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  rows: ReadonlySet<number>,
  choices: ReadonlySet<number>,
  samples: string[],
  sheet: string,
): number {
  if (choices.size < 2) return 0;
  let count = 0;
  for (const r of rows) {
    const cellsOf = (map: ReadonlyMap<string, string>) => [...choices].map((c) => (map.get(`${r}:${c}`) ?? '').trim());
    const was = cellsOf(before);
    const now = cellsOf(after);
    if (!was.some((cell) => cell !== '') || was.every((cell, i) => cell === now[i])) continue;
    count += 1;
    if (samples.length < 4) samples.push(`marked answered row ${sheet}!R${r} [${was.join('|')}]→[${now.join('|')}]`);
  }
  return count;
}

/** A CSV export against its original: the same records and columns, changes only in question rows' answer cells. */
export function compareCsv(original: Uint8Array, exported: Uint8Array, truth: FileTruth): Fidelity {
  const result = emptyFidelity();
  const parse = (bytes: Uint8Array) =>
    Papa.parse<string[]>(new TextDecoder().decode(bytes).replace(/^\ufeff/, ''), { skipEmptyLines: false }).data;
  const before = parse(original);
  const after = parse(exported);
  const sheetTruth = Object.values(truth.sheets)[0];
  const rows = new Set([...(sheetTruth?.questionRows ?? []), ...(sheetTruth?.optionalRows ?? [])]);
  const width = before.reduce((max, record) => Math.max(max, record.length), 0);
  const answer = sheetTruth?.answerColumn ? columnIndex(sheetTruth.answerColumn) : width;
  if (Math.abs(before.length - after.length) > 1)
    result.structureChanges.push(`records ${before.length} → ${after.length}`);
  after.forEach((record, r) => {
    record.forEach((cell, c) => {
      const was = before[r]?.[c] ?? '';
      if (cell === was) return;
      const inTarget = c === answer && (rows.has(r + 1) || r + 1 === sheetTruth?.headerRow);
      if (!inTarget) {
        result.outsideTarget += 1;
        if (result.samples.length < 4)
          result.samples.push(`R${r + 1}C${c + 1} "${was.slice(0, 30)}"→"${cell.slice(0, 30)}"`);
      } else {
        result.written += 1;
        if (was.trim() !== '') result.overwrites += 1;
      }
    });
  });
  return result;
}
