import { dropdownAnswer } from './write-choice';
import { findPart, openPackage, type PackageParts, readXml, savePackage } from './write-package';
import { cleanCellText } from './write-text';
import { type AnswerCell, WriteBackError, type WriteTarget } from './write-types';
import {
  applySplices,
  ATTRIBUTES_PATTERN,
  attributeValue,
  decodeXmlEntities,
  escapeXmlText,
  findElement,
  escapeRegExp,
  parseAttributes,
  rootPrefix,
  serializeAttributes,
  type Splice,
} from './write-xml';
import { assertSafeZip } from './zip-guard';

/** One `<w:tc>` of a table row, as found in document.xml. */
type DocxCell = {
  start: number;
  end: number;
  /** Where the cell's content begins: after its `<w:tcPr>` when it has one. */
  contentStart: number;
  contentEnd: number;
  /** 0-based grid column: the gridSpans of the cells before it in its row. */
  column: number;
  span: number;
  /** A vMerge continuation: Word shows the merge's first cell here. */
  continuation: boolean;
  hasText: boolean;
  /** Holds something other than plain runs (a form field, a content control, a picture, a nested table). */
  hasObjects: boolean;
};

type DocxTable = { rows: DocxCell[][] };

/**
 * The customer's Word questionnaire with the answers written into its tables' answer cells. Tables are addressed as
 * the intake names them ("Table N", top-level tables in document order, the same rows mammoth reads) and columns
 * count grid columns, so a merged cell before the answer column does not shift it. Only empty answer cells are
 * written, never a column added: a target without an answer column writes nothing. Only word/document.xml changes,
 * and in it only the written cells' paragraphs.
 */
export function writeAnswersToDocx(
  original: Uint8Array,
  targets: readonly WriteTarget[],
  answers: readonly AnswerCell[],
): Uint8Array {
  assertSafeZip(original);
  const parts = openPackage(original);
  const part = documentPart(parts);
  const bytes = parts[part];
  if (!bytes) throw damaged();
  const xml = readXml(bytes, part);
  const prefix = rootPrefix(xml.text, 'document');
  if (prefix === null) throw damaged();
  const tables = scanTables(xml.text, prefix);

  const splices: Splice[] = [];
  const written = new Set<DocxCell>();
  const write = (cell: DocxCell | undefined, text: string) => {
    if (!cell || text === '' || cell.hasText || cell.hasObjects || cell.continuation || written.has(cell)) return;
    written.add(cell);
    splices.push({ start: cell.contentStart, end: cell.contentEnd, text: cellContent(xml.text, cell, prefix, text) });
  };

  const byTable = new Map<number, WriteTarget[]>();
  for (const target of targets) {
    validateTarget(target);
    const index = tableIndex(target.sheet);
    if (index >= tables.length) {
      throw new WriteBackError('sheet_not_found', `The Word document has no table "${target.sheet}".`);
    }
    byTable.set(index, [...(byTable.get(index) ?? []), target]);
  }
  for (const answer of answers) {
    const index = tableIndex(answer.sheet);
    const ordered = [...(byTable.get(index) ?? [])].sort((a, b) => a.headerRow - b.headerRow);
    if (ordered.length === 0) {
      throw new WriteBackError('invalid_target', `There is no column mapping for the answers in "${answer.sheet}".`);
    }
    // As in a workbook: an answer belongs to the nearest header above its row.
    const target =
      ordered.filter((t) => t.headerRow < answer.row).pop() ?? ordered.find((t) => t.headerRow !== answer.row);
    // No answer column: a Word table has nowhere to put the answer short of adding a column, which is never done.
    if (!target || target.answerColumn === null) continue;
    const row = tables[index]?.rows[answer.row - 1];
    if (!row) continue;
    const at = (column: number) => cellAt(row, column - 1, target.questionColumn - 1);
    const text = cleanCellText(answer.answer);
    const allowed = (answer.allowedValues !== undefined ? answer.allowedValues : target.allowedValues) ?? [];
    const comments = target.commentsColumn === target.answerColumn ? null : target.commentsColumn;
    if (comments !== null && allowed.length > 0) {
      const dropdown = dropdownAnswer(answer.shortAnswer, allowed, text, answer.choice);
      if (dropdown.choice !== null) write(at(target.answerColumn), cleanCellText(dropdown.choice));
      if (!answer.keepComments) write(at(comments), cleanCellText(dropdown.comments));
    } else {
      write(at(target.answerColumn), text);
    }
  }
  // Nothing to write: the customer's file exactly as it came, not even re-zipped.
  if (splices.length === 0) return original;
  parts[part] = xml.encode(applySplices(xml.text, splices));
  return savePackage(parts);
}

const damaged = () => new WriteBackError('corrupt', 'The original Word document is damaged and cannot be filled in.');

/** The main document part, found as Word finds it (the package's officeDocument relationship). */
function documentPart(parts: PackageParts): string {
  const relsName = findPart(parts, '_rels/.rels');
  const relsBytes = relsName ? parts[relsName] : undefined;
  if (relsName && relsBytes) {
    const rels = readXml(relsBytes, relsName).text;
    const relPrefix = rootPrefix(rels, 'Relationships') ?? '';
    for (
      let rel = findElement(rels, `${relPrefix}Relationship`);
      rel;
      rel = findElement(rels, `${relPrefix}Relationship`, rel.end)
    ) {
      const type = attributeValue(rel.attributes, 'Type') ?? '';
      const target = attributeValue(rel.attributes, 'Target');
      if (!type.endsWith('/officeDocument') || target === null) continue;
      const found = findPart(parts, target.replace(/^\/+/, ''));
      if (found) return found;
    }
  }
  const fallback = findPart(parts, 'word/document.xml');
  if (!fallback) throw damaged();
  return fallback;
}

function tableIndex(sheet: string): number {
  const match = /^Table (\d+)$/.exec(sheet);
  const n = match ? Number.parseInt(match[1] ?? '', 10) : 0;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new WriteBackError('sheet_not_found', `The Word document has no table "${sheet}".`);
  }
  return n - 1;
}

function validateTarget(target: WriteTarget): void {
  const columns = [target.questionColumn, target.answerColumn, target.commentsColumn].filter(
    (c): c is number => c !== null,
  );
  if (
    columns.some((c) => !Number.isInteger(c) || c < 1) ||
    !Number.isInteger(target.headerRow) ||
    target.headerRow < 0
  ) {
    throw new WriteBackError('invalid_target', `The column mapping for "${target.sheet}" is out of the table's range.`);
  }
  if (target.answerColumn === target.questionColumn || target.commentsColumn === target.questionColumn) {
    throw new WriteBackError('invalid_target', `The answers for "${target.sheet}" would overwrite its questions.`);
  }
}

/** The cell covering a grid column, unless that cell is the question's own (a merge across both). */
function cellAt(row: readonly DocxCell[], column: number, questionColumn: number): DocxCell | undefined {
  const cell = row.find((c) => c.column <= column && column < c.column + c.span);
  if (!cell || (cell.column <= questionColumn && questionColumn < cell.column + cell.span)) return undefined;
  return cell;
}

// Every tag, comment, processing instruction or CDATA section; only tags matter, the rest must not be read as tags.
const TOKEN = new RegExp(
  `<!--[\\s\\S]*?-->|<!\\[CDATA\\[[\\s\\S]*?\\]\\]>|<\\?[\\s\\S]*?\\?>|<(/?)([A-Za-z_][\\w.-]*:)?([A-Za-z_][\\w.-]*)(${ATTRIBUTES_PATTERN})\\s*(/?)>`,
  'g',
);

// Content that writing plain paragraphs over would destroy, or that Word shows as an answer without text.
const OBJECTS = new Set(['drawing', 'pict', 'object', 'fldChar', 'fldSimple', 'sdt', 'tbl', 'txbxContent', 'sym']);

type Open = { local: string; main: boolean; openTagEnd: number };

/**
 * The top-level tables of the document body with their rows and cells, read the way mammoth reads them (which is
 * what named the tables and numbered the rows at import): rows marked deleted by tracked changes are not rows, and
 * of an mc:AlternateContent only the Fallback is read.
 */
function scanTables(xml: string, w: string): DocxTable[] {
  const tables: DocxTable[] = [];
  const stack: Open[] = [];
  let tableDepth = 0;
  let choiceDepth = 0;
  let table: DocxTable | null = null;
  let row: { cells: DocxCell[]; deleted: boolean; column: number } | null = null;
  let cell: DocxCell | null = null;
  const parentIs = (local: string, up = 1) => {
    const parent = stack[stack.length - up];
    return parent !== undefined && parent.main && parent.local === local;
  };

  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(xml); match; match = TOKEN.exec(xml)) {
    const local = match[3];
    if (local === undefined) continue;
    const closing = match[1] === '/';
    const selfClosing = match[5] === '/';
    const tagPrefix = match[2] ?? '';
    const main = tagPrefix === w;
    const start = match.index;
    const end = start + match[0].length;

    if (closing) {
      const open = stack.pop();
      if (!open) throw damaged();
      if (!open.main && open.local === 'Choice') choiceDepth -= 1;
      if (choiceDepth > 0 || !open.main) continue;
      if (open.local === 'tbl') {
        tableDepth -= 1;
        if (tableDepth === 0 && table) {
          tables.push(table);
          table = null;
        }
      } else if (tableDepth === 1 && open.local === 'tr' && row) {
        if (!row.deleted) table?.rows.push(row.cells);
        row = null;
      } else if (tableDepth === 1 && open.local === 'tc' && cell && row) {
        cell.end = end;
        cell.contentEnd = start;
        row.cells.push(cell);
        row.column += cell.span;
        cell = null;
      } else if (tableDepth === 1 && open.local === 'tcPr' && cell && parentIs('tc')) {
        cell.contentStart = end;
      } else if (cell && open.local === 't') {
        if (decodeXmlEntities(xml.slice(open.openTagEnd, start)).trim() !== '') cell.hasText = true;
      }
      continue;
    }

    const isChoice = !main && local === 'Choice';
    if (choiceDepth > 0 || isChoice) {
      if (!selfClosing) {
        stack.push({ local, main, openTagEnd: end });
        if (isChoice) choiceDepth += 1;
      }
      continue;
    }

    if (main) {
      if (cell && OBJECTS.has(local)) cell.hasObjects = true;
      if (local === 'tbl' && !selfClosing) {
        tableDepth += 1;
        if (tableDepth === 1) table = { rows: [] };
      } else if (tableDepth === 1 && local === 'tr' && !selfClosing) {
        row = { cells: [], deleted: false, column: 0 };
      } else if (tableDepth === 1 && local === 'del' && parentIs('trPr') && row) {
        row.deleted = true;
      } else if (tableDepth === 1 && local === 'tc' && row) {
        cell = {
          start,
          end,
          contentStart: end,
          contentEnd: end,
          column: row.column,
          span: 1,
          continuation: false,
          hasText: false,
          hasObjects: false,
        };
        if (selfClosing) {
          row.cells.push(cell);
          row.column += 1;
          cell = null;
        }
      } else if (tableDepth === 1 && cell && parentIs('tcPr') && parentIs('tc', 2)) {
        const value = attributeValue(parseAttributes(match[4] ?? ''), `${w}val`);
        if (local === 'gridSpan') {
          const span = Number.parseInt(value ?? '1', 10);
          // Word caps a table at 63 columns; a larger span is damage, read as mammoth's reader would bound it.
          cell.span = Number.isFinite(span) && span >= 1 ? Math.min(span, 64) : 1;
        } else if (local === 'vMerge') {
          cell.continuation = value === null || value === 'continue';
        }
      }
      if (cell && tableDepth === 1 && local === 'tcPr' && selfClosing && parentIs('tc')) cell.contentStart = end;
    }
    if (!selfClosing) stack.push({ local, main, openTagEnd: end });
  }
  if (stack.length > 0) throw damaged();
  return tables;
}

// Empty markers a cell may hold that something elsewhere pairs with or points to (a bookmark a cross-reference
// uses, the editable range of a protected form, a comment's anchor); they are kept when the cell is written.
const MARKERS = ['bookmarkStart', 'bookmarkEnd', 'permStart', 'permEnd', 'commentRangeStart', 'commentRangeEnd'];

/** The new content of an empty cell holding `text`, in the cell's own paragraph and character formatting. */
function cellContent(xml: string, cell: DocxCell, w: string, text: string): string {
  const from = cell.contentStart;
  const until = cell.contentEnd;
  const paragraph = findElement(xml, `${w}p`, from, until);
  const pPrSpan =
    paragraph && !paragraph.selfClosing
      ? findElement(xml, `${w}pPr`, paragraph.openTagEnd, paragraph.contentEnd)
      : null;
  const pPr = pPrSpan ? xml.slice(pPrSpan.start, pPrSpan.end) : '';
  const rPr = runProperties(xml, w, from, until, pPrSpan);
  const kept = keptMarkers(xml, w, from, until);
  const runs = (line: string) =>
    line === ''
      ? ''
      : `<${w}r>${rPr}${line
          .split('\t')
          .map((part) => (part === '' ? '' : `<${w}t xml:space="preserve">${escapeXmlText(part)}</${w}t>`))
          .join(`<${w}tab/>`)}</${w}r>`;
  const firstTag = paragraph ? `<${w}p${serializeAttributes(paragraph.attributes)}>` : `<${w}p>`;
  return text
    .split('\n')
    .map((line, i) => `${i === 0 ? firstTag : `<${w}p>`}${pPr}${i === 0 ? kept : ''}${runs(line)}</${w}p>`)
    .join('');
}

// Revision marks of the paragraph mark (CT_ParaRPr) that a run's properties (CT_RPr) may not hold, and a tracked
// formatting change, whose revision id would be duplicated.
const REVISION_PROPERTIES = (w: string) =>
  new RegExp(
    `<${escapeRegExp(w)}(?:ins|del|moveFrom|moveTo)\\b(?:${ATTRIBUTES_PATTERN})\\s*(?:/>|>[\\s\\S]*?</${escapeRegExp(w)}(?:ins|del|moveFrom|moveTo)>)|<${escapeRegExp(w)}rPrChange\\b[\\s\\S]*?</${escapeRegExp(w)}rPrChange>`,
    'g',
  );

/**
 * The character formatting for the answer: the first run's, else the paragraph mark's (what Word gives text typed
 * into the empty cell).
 */
function runProperties(
  xml: string,
  w: string,
  from: number,
  until: number,
  pPr: ReturnType<typeof findElement>,
): string {
  const run = findElement(xml, `${w}r`, from, until);
  const own = run && !run.selfClosing ? findElement(xml, `${w}rPr`, run.openTagEnd, run.contentEnd) : null;
  const mark = !own && pPr && !pPr.selfClosing ? findElement(xml, `${w}rPr`, pPr.openTagEnd, pPr.contentEnd) : null;
  const found = own ?? mark;
  if (!found || found.selfClosing) return '';
  const content = xml.slice(found.openTagEnd, found.contentEnd).replace(REVISION_PROPERTIES(w), '');
  return content.trim() === '' ? '' : `<${w}rPr>${content}</${w}rPr>`;
}

/** The cell's markers and comment references, in document order. */
function keptMarkers(xml: string, w: string, from: number, until: number): string {
  const names = MARKERS.map((name) => escapeRegExp(w + name)).join('|');
  const pattern = new RegExp(
    `<(?:${names})(?:${ATTRIBUTES_PATTERN})\\s*/>|<${escapeRegExp(w)}r\\b(?:${ATTRIBUTES_PATTERN})\\s*>(?:(?!</${escapeRegExp(w)}r>)[\\s\\S])*?<${escapeRegExp(w)}commentReference\\b[\\s\\S]*?</${escapeRegExp(w)}r>`,
    'g',
  );
  return (xml.slice(from, until).match(pattern) ?? []).join('');
}
