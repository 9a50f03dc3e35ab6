import {
  dropCalcChain,
  emptySharedStrings,
  openPackage,
  type PackageParts,
  readWorkbook,
  readXml,
  requestFullCalcOnLoad,
  savePackage,
  type SheetEntry,
} from './write-package';
import { planSheet } from './write-plan';
import { patchWorksheet } from './write-sheet-patch';
import { scanWorksheet } from './write-sheet-scan';
import { type AnswerCell, WriteBackError, type WriteTarget } from './write-types';

export type { AnswerCell, ExportRow, ShortAnswer, WriteTarget } from './write-types';
export { WriteBackError } from './write-types';
export { answersToNewXlsx } from './write-new-xlsx';
export { answersToCsv } from './write-csv';

/**
 * The customer's own workbook with the answers written in. Only the worksheet parts of the targeted sheets are
 * edited, as XML in place (an exceljs load/save round trip drops drawings, pivot parts and extensions it does not
 * model); every other part of the package keeps its exact bytes, except that
 * - `xl/workbook.xml` gains `fullCalcOnLoad="1"` when the workbook has formulas, so totals over the answers are
 *   recalculated when it is opened, and
 * - the calculation chain is removed (part, relationship, content type) when a formula cell was overwritten.
 * Answers are inline strings, so sharedStrings.xml and styles.xml never change.
 */
export async function writeAnswersToXlsx(
  original: Uint8Array,
  targets: readonly WriteTarget[],
  answers: readonly AnswerCell[],
): Promise<Uint8Array> {
  const parts = openPackage(original);
  const workbook = readWorkbook(parts);
  const bySheet = new Map<SheetEntry, { targets: WriteTarget[]; answers: AnswerCell[] }>();
  const group = (name: string) => {
    const entry = findSheet(workbook.sheets, name);
    const existing = bySheet.get(entry) ?? { targets: [], answers: [] };
    bySheet.set(entry, existing);
    return existing;
  };
  for (const target of targets) group(target.sheet).targets.push(target);
  for (const answer of answers) group(answer.sheet).answers.push(answer);

  // Only marks need to tell an empty shared string from a value; other writes replace the cell either way.
  const marks = targets.some((target) => (target.choiceColumns?.length ?? 0) > 0);
  const emptyStrings = marks ? emptySharedStrings(parts, workbook.part) : new Set<number>();
  let removesFormulas = false;
  for (const [entry, work] of bySheet) {
    if (work.targets.length === 0) {
      throw new WriteBackError('invalid_target', `There is no column mapping for the answers on "${entry.name}".`);
    }
    const bytes = parts[entry.part];
    if (!bytes) throw new WriteBackError('corrupt', `The sheet "${entry.name}" is missing from the workbook.`);
    const xml = readXml(bytes, entry.part);
    const scan = scanWorksheet(xml.text, entry.part);
    const plan = planSheet(scan, work.targets, work.answers, emptyStrings);
    parts[entry.part] = xml.encode(patchWorksheet(scan, plan.edits));
    removesFormulas ||= plan.removesFormulas;
  }
  if (removesFormulas) dropCalcChain(parts, workbook.part);
  if (hasFormulas(parts, workbook.sheets)) requestFullCalcOnLoad(parts, workbook.part);
  return savePackage(parts);
}

function findSheet(sheets: readonly SheetEntry[], name: string): SheetEntry {
  // Excel treats sheet names case-insensitively (two sheets cannot differ only by case).
  const entry = sheets.find((s) => s.name === name) ?? sheets.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (!entry) throw new WriteBackError('sheet_not_found', `The workbook has no sheet named "${name}".`);
  if (entry.kind !== 'worksheet') {
    throw new WriteBackError('invalid_target', `"${name}" is a chart or dialog sheet, not a worksheet.`);
  }
  return entry;
}

// A formula element with or without a namespace prefix; read as latin1, which is enough to find ASCII markup.
const FORMULA_ELEMENT = /<(?:[A-Za-z_][\w.-]*:)?f[\s/>]/;

function hasFormulas(parts: PackageParts, sheets: readonly SheetEntry[]): boolean {
  return sheets.some((sheet) => {
    const bytes = parts[sheet.part];
    return (
      bytes !== undefined &&
      FORMULA_ELEMENT.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'))
    );
  });
}
