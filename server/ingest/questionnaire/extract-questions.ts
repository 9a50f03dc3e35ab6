import type { Layout } from './detect';
import { answerIsComputed } from './formula-cells';
import { MAX_QUESTION_CHARS, longQuestionNote } from './messages';
import {
  bestRole,
  endsWithQuestionMark,
  headerRoles,
  isControlId,
  isInstruction,
  isNumberOnly,
  isQuestionLike,
  isStatementLike,
  isTitleCase,
  isTitleLike,
  leadingControlId,
  normalizeLabel,
  wordCount,
} from './text-patterns';
import type { CellRange, QuestionItem, RawSheet } from './types';
import { isTemplateHint } from './template-hints';
import { allowedValuesAt } from './xlsx-validations';

const MIN_QUESTION_CHARS = 8;
// "OK", "N/A", "x": filler, not a heading.
const MIN_HEADING_LETTERS = 4;

type Row =
  /** `elsewhere`: written in another column than the questions ("Business Information" alone in column A). */
  | { kind: 'heading'; text: string; id: string | null; elsewhere?: boolean }
  /** Reads like a heading ("Access Control") but may be a terse item of a checklist; decided once all rows are seen. */
  | { kind: 'title'; index: number; text: string; id: string | null; section: string | null }
  | { kind: 'question'; index: number; text: string; id: string | null; section: string | null };

export type ExtractOptions = {
  /**
   * Every non-empty cell of the question column is a question (the specification's import-csv: "one question per row"), with no
   * guessing of headings or instructions; only blank rows, repeated headers and numbers are skipped.
   */
  everyRow?: boolean;
};

/**
 * The questions of one sheet under a layout, in order: blank rows, repeated header rows, instructions and section
 * headings are skipped (the last heading above a question becomes its section); a question cell too long to be one
 * is skipped with a note rather than failing the file. A row whose answer cell is a formula is not asked (the
 * workbook computes it); `computed` counts those rows, which is how an evaluation sheet is told from a questionnaire.
 */
export function extractQuestions(
  sheet: RawSheet,
  layout: Layout,
  options: ExtractOptions = {},
): { questions: QuestionItem[]; notes: string[]; computed: number } {
  const { mapping } = layout;
  const q = mapping.questionColumn;
  const notes: string[] = [];
  const headerLabels = mapping.headerRow >= 0 ? (sheet.rows[mapping.headerRow] ?? []).map(normalizeLabel) : null;
  const masters = mergeMasters(sheet.merges);
  const layoutMerge = commonQuestionMerge(sheet, q, masters);
  const headerEnd = Math.max(mapping.headerRow, layout.subHeaderRow ?? -1) + 1;
  // Where every question carries its own reference, the reference decides: rows without one (criteria under a
  // question, notes, instructions) are not questions, and questions above the first header (a form's contact
  // fields, "GNRL-01 | Vendor Name") are.
  const idDriven =
    !options.everyRow && mapping.idColumn !== null && referencesEveryQuestion(sheet, q, mapping.idColumn, headerEnd);
  // The rows a person set are the questions' (the header itself is still skipped below); rows outside them (a title
  // block, a sign-off under the table) are not.
  const start = mapping.firstRow ?? (idDriven ? 0 : headerEnd);
  const end = Math.min(sheet.rows.length, (mapping.lastRow ?? sheet.rows.length) + 1);

  const rows: Row[] = [];
  // From the section column only; headings are placed once titles are resolved.
  let section: string | null = null;
  for (let index = start; index < end; index += 1) {
    const cells = sheet.rows[index] ?? [];
    if (!cells.some((cell) => cell !== '')) continue;
    const header = index >= mapping.headerRow && index < headerEnd;
    if (header || (headerLabels && isRepeatedHeader(cells, headerLabels, q))) {
      // "Company Overview | | Vendor Answers | Additional Information": a header per section, named in its first cell.
      const named = sectionInHeader(cells, layout);
      if (named) rows.push({ kind: 'heading', text: named, id: null });
      continue;
    }

    const sectionValue = layout.sectionColumn === null ? '' : (cells[layout.sectionColumn] ?? '');
    if (sectionValue !== '' && sectionValue.length <= 200) section = sectionValue;

    const text = cells[q] ?? '';
    if (text === '') {
      const heading = headingOutsideQuestionColumn(cells, index, layout, masters);
      if (heading) rows.push({ kind: 'heading', text: heading, id: null, elsewhere: true });
      continue;
    }
    if (text.length > MAX_QUESTION_CHARS) {
      notes.push(longQuestionNote(sheet.name, index + 1));
      continue;
    }
    const idCell = mapping.idColumn === null ? '' : (cells[mapping.idColumn] ?? '');
    if (options.everyRow) {
      if (!isNumberOnly(text) && letterCount(text) >= 3)
        rows.push({ kind: 'question', index, text, id: idCell || null, section });
      continue;
    }
    if (idDriven) {
      if (!isControlId(idCell)) {
        if (index >= headerEnd && isTitleLike(text) && !isInstruction(text)) {
          rows.push({ kind: 'heading', text: joinHeading(idCell, text), id: idCell || null });
        }
        continue;
      }
      // A short field ("Vendor Name", "Date") is a question here: its reference says so.
      if (isNumberOnly(text) || letterCount(text) < 3) continue;
      rows.push({ kind: isTitleLike(text) ? 'title' : 'question', index, text, id: idCell, section });
      continue;
    }
    if (isInstruction(text) || isFooterOrLabel(text)) continue;

    const spanning = masters.get(`${index}:${q}`);
    const banner = spanning && shapeOf(spanning) !== layoutMerge && spansTable(spanning, layout);
    // A banner across the table is a heading, unless it asks something ("Identify additional measures…" above the
    // table the answer goes in, as Word forms do).
    if (banner && !endsWithQuestionMark(text) && !isQuestionLike(text)) {
      rows.push({ kind: 'heading', text: joinHeading(idCell, text), id: idCell || null });
      continue;
    }

    if (isNumberOnly(text) || (text.length < 16 && letterCount(text) < MIN_HEADING_LETTERS)) continue;
    const others = cells.some(
      (cell, column) => cell !== '' && column !== q && column !== mapping.idColumn && column !== layout.sectionColumn,
    );
    // "Company name:" asks for a value, as a form's profile fields do; it is not a heading.
    if (isFieldLabel(text)) {
      rows.push({ kind: 'question', index, text, id: idCell || null, section });
      continue;
    }
    if (!others && isTitleLike(text) && (!isStatementLike(text) || isTitleCase(text))) {
      rows.push({ kind: 'title', index, text, id: idCell || null, section });
      continue;
    }
    if (text.length < MIN_QUESTION_CHARS) continue;
    rows.push({ kind: 'question', index, text, id: idCell || null, section });
  }

  const found = resolveTitles(rows, sheet, layout, idDriven);
  const questions = found.filter((item) => !answerIsComputed(sheet, item.row - 1, mapping));
  return { questions, notes, computed: found.length - questions.length };
}

/**
 * A short title-like row is a section heading in a questionnaire, but an item in a checklist of terse items
 * ("Firewall in place", "Badge access"). When titles outnumber real questions the sheet is such a checklist; a
 * title whose id is the prefix of the next question's id ("A.1" before "A.1.1") is a heading either way. Where
 * every question has a reference (`idDriven`), that is the only way a referenced row is a heading.
 */
function resolveTitles(rows: readonly Row[], sheet: RawSheet, layout: Layout, idDriven: boolean): QuestionItem[] {
  const titles = rows.filter((row) => row.kind === 'title').length;
  const questions = rows.filter((row) => row.kind === 'question').length;
  const checklist = titles > questions;
  // Where the sheet writes its section headings in a column of their own, a short row in the question column that
  // names a value to fill in ("Assessee Name", "Date of Response") is a field, not another heading; a sub-heading
  // ("Management direction for information security") stays one.
  const headingsElsewhere = rows.filter((row) => row.kind === 'heading' && row.elsewhere).length >= 2;
  const items: QuestionItem[] = [];
  let section: string | null = null;
  // Short rows right after "What deployment models are provided (select all that apply):" are its options.
  let options = false;
  rows.forEach((row, position) => {
    if (row.kind === 'heading') {
      section = row.text;
      options = false;
      return;
    }
    if (row.kind === 'title') {
      const next = nextNonHeading(rows, position);
      const parentOfNext = row.id !== null && next?.id != null && isParentId(row.id, next.id);
      // The choices listed under the question before: part of it, not rows of their own.
      if (options && !checklist && !parentOfNext) return;
      options = false;
      // "2.3 | Firewall" among "2.2 | …", "2.4 | …" is an item numbered like its neighbours, not a heading.
      const siblingOfNext = row.id !== null && next?.id != null && !parentOfNext && sameDepth(row.id, next.id);
      const field = headingsElsewhere && FIELD_WORDS.test(row.text);
      // Where every question has a reference, only a parent reference makes a heading.
      const heading = parentOfNext || (!idDriven && !checklist && !siblingOfNext && !field);
      if (heading) {
        section = joinHeading(row.id ?? '', row.text);
        return;
      }
      if (row.text.length < MIN_QUESTION_CHARS && !idDriven) return;
      items.push(questionItem(sheet, layout, row.index, row.text, row.id, row.section ?? section));
      return;
    }
    // A section column is the better source where there is one; headings fill in where it is empty.
    const item = questionItem(sheet, layout, row.index, row.text, row.id, row.section ?? section);
    items.push(item);
    // A question whose answer cell offers its choices in a dropdown lists none below it.
    options = introducesOptions(row.text) && item.allowedValues === null;
  });
  return items;
}

/**
 * A question that lists its choices in the rows below it: it asks to pick from a list ("select all that apply"), or
 * asks which or what and ends in a colon ("What deployment models are provided:"). "Please provide the following:"
 * asks for fields, which are rows of their own.
 */
function introducesOptions(text: string): boolean {
  return (
    /\b(select|check|tick|choose|mark) (all|any|one|each)\b|\ball that apply\b/i.test(text) ||
    (/^\s*(what|which)\b/i.test(text) && /[:：]\s*$/.test(text) && wordCount(text) >= 5)
  );
}

/** A short row naming a value to fill in: a name, a date, an address, a contact. */
const FIELD_WORDS =
  /\b(names?|dates?|titles?|address(es)?|e-?mails?|phones?|telephone|contacts?|details|company|companies|website|url|location|country|signature|department|position)\b/i;

function questionItem(
  sheet: RawSheet,
  layout: Layout,
  index: number,
  text: string,
  idCell: string | null,
  section: string | null,
): QuestionItem {
  const { mapping } = layout;
  const cells = sheet.rows[index] ?? [];
  let question = text;
  let controlId = idCell;
  if (controlId === null) {
    const leading = leadingControlId(text);
    if (leading) {
      controlId = leading.id;
      question = leading.rest;
    }
  }
  let allowedValues: string[] | null = null;
  let existingAnswer: string | null = null;
  let answerHint: string | null = null;
  const choices = mapping.answerChoiceColumns;
  if (choices && choices.length > 0) {
    allowedValues = choices.map((choice) => choice.label);
    existingAnswer = choices.find((choice) => (cells[choice.column] ?? '') !== '')?.label ?? null;
  } else if (mapping.answerColumn !== null) {
    const values = allowedValuesAt(sheet.validations, index, mapping.answerColumn);
    allowedValues = values ? [...values] : null;
    const text = (cells[mapping.answerColumn] ?? '').trim();
    if (text !== '' && isTemplateHint(text, question)) answerHint = text;
    else existingAnswer = text || null;
  }
  const existingComment = mapping.commentsColumn === null ? null : (cells[mapping.commentsColumn] ?? '').trim() || null;
  return {
    sheet: sheet.name,
    row: index + 1,
    controlId,
    question,
    section,
    allowedValues,
    existingAnswer,
    answerHint,
    existingComment,
  };
}

function nextNonHeading(rows: readonly Row[], position: number): Row | undefined {
  for (let at = position + 1; at < rows.length; at += 1) {
    const row = rows[at];
    if (row && row.kind !== 'heading') return row;
  }
  return undefined;
}

/** "A.1" is the parent of "A.1.1" and "IAM" of "IAM-02". */
function isParentId(parent: string, child: string): boolean {
  const a = parent
    .trim()
    .replace(/[.\s]+$/, '')
    .toLowerCase();
  const b = child.trim().toLowerCase();
  return a !== '' && b.length > a.length && b.startsWith(a) && /^[.\-_ ]/.test(b.slice(a.length));
}

function sameDepth(a: string, b: string): boolean {
  const depth = (id: string) => id.split(/[.\-_ ]+/).filter((part) => part !== '').length;
  return depth(a) === depth(b);
}

// A publisher's footer, or a row labelled as something other than a question: the assertion or criteria a
// reviewer checks the answer against, guidance, an example.
const FOOTER =
  /^(©|\(c\)\s|copyright\b)|\ball rights reserved\b|^page \d+( of \d+)?$|^(confidential|proprietary)\b.{0,80}$/i;
const LABELLED =
  /^(assertions?|criteria|criterion|guidance|example|hint|tip|scoring|rationale|expected evidence|reviewer notes?)\s*[:：]/i;

function isFooterOrLabel(text: string): boolean {
  return FOOTER.test(text) || LABELLED.test(text);
}

/** A short label ending in a colon: a field to fill in ("Company name:", "Primary contact e-mail:"). */
function isFieldLabel(text: string): boolean {
  return (
    /[:：]$/.test(text) &&
    !text.includes('\n') &&
    wordCount(text) <= 8 &&
    letterCount(text) >= 3 &&
    // As long as any question: "AAAA:" in a random file is not a field.
    text.length >= MIN_QUESTION_CHARS
  );
}

/**
 * Most rows with question text (at least 40%: a question may carry its criteria in the row below) have a control id
 * of their own, all different: the sheet numbers its questions.
 */
function referencesEveryQuestion(sheet: RawSheet, q: number, idColumn: number, from: number): boolean {
  let withText = 0;
  const ids = new Set<string>();
  let withId = 0;
  for (let index = from; index < sheet.rows.length; index += 1) {
    const row = sheet.rows[index] ?? [];
    if ((row[q] ?? '') === '') continue;
    withText += 1;
    const id = row[idColumn] ?? '';
    if (!isControlId(id)) continue;
    withId += 1;
    ids.add(id);
  }
  return withId >= 3 && withId >= withText * 0.4 && ids.size >= withId * 0.9;
}

function letterCount(text: string): number {
  return text.match(/\p{L}/gu)?.length ?? 0;
}

function joinHeading(id: string, text: string): string {
  return id !== '' && !text.startsWith(id) ? `${id} ${text}` : text;
}

/** The header again (tables pasted one under another, or repeated at each page in a Word export). */
function isRepeatedHeader(cells: readonly string[], labels: readonly string[], q: number): boolean {
  const questionLabel = labels[q] ?? '';
  if (questionLabel !== '' && sameLabel(cells[q] ?? '', questionLabel)) return true;
  let same = 0;
  let filled = 0;
  cells.forEach((cell, column) => {
    if (cell === '') return;
    filled += 1;
    const label = labels[column];
    if (label !== undefined && label !== '' && sameLabel(cell, label)) same += 1;
  });
  return same >= 2 && same * 2 >= filled;
}

/**
 * A section's name written in a header row where the ids go (or left of them): "Company Overview" above COMP-01.
 * A label with a role of its own ("Ref", "#") is the header's, not a section.
 */
function sectionInHeader(cells: readonly string[], layout: Layout): string | null {
  const { mapping } = layout;
  const last = Math.min(mapping.questionColumn - 1, mapping.idColumn ?? mapping.questionColumn - 1);
  for (let column = 0; column <= last; column += 1) {
    const cell = cells[column] ?? '';
    if (cell === '') continue;
    if (bestRole(headerRoles(cell)) > 0 || !isTitleLike(cell) || isInstruction(cell)) return null;
    return cell;
  }
  return null;
}

/** Compares a cell with a normalised label, normalising only cells short enough to be one (most are questions). */
function sameLabel(cell: string, label: string): boolean {
  return cell.length <= label.length * 2 + 8 && normalizeLabel(cell) === label;
}

/** A heading written in another column than the questions ("Section 3: Network" in column A, merged across). */
function headingOutsideQuestionColumn(
  cells: readonly string[],
  index: number,
  layout: Layout,
  masters: ReadonlyMap<string, CellRange>,
): string | null {
  const { mapping } = layout;
  const filled = cells
    .map((cell, column) => ({ cell, column }))
    .filter(({ cell, column }) => cell !== '' && column !== mapping.answerColumn && column !== mapping.commentsColumn);
  if (filled.length === 0 || filled.length > 2 || filled.length !== cells.filter((cell) => cell !== '').length) {
    return null;
  }
  const text = filled.map(({ cell }) => cell).join(' ');
  if (isInstruction(text) || isQuestionLike(text)) return null;
  if (isTitleLike(text)) return text;
  // A banner merged across the question column is a heading however long it is.
  const first = filled[0];
  const merge = first ? masters.get(`${index}:${first.column}`) : undefined;
  const q = mapping.questionColumn;
  return merge && merge.left <= q && merge.right >= q && text.length <= 200 ? text : null;
}

/**
 * Forms often merge each question cell over a few columns for room (B:D on every row); that merge is layout, not a
 * banner. It is the shape shared by at least half the filled question cells, if any.
 */
function commonQuestionMerge(sheet: RawSheet, q: number, masters: ReadonlyMap<string, CellRange>): string | null {
  const counts = new Map<string, number>();
  let filled = 0;
  sheet.rows.forEach((row, index) => {
    if ((row[q] ?? '') === '') return;
    filled += 1;
    const merge = masters.get(`${index}:${q}`);
    if (merge) counts.set(shapeOf(merge), (counts.get(shapeOf(merge)) ?? 0) + 1);
  });
  for (const [shape, count] of counts) if (count >= 3 && count * 2 >= filled) return shape;
  return null;
}

function shapeOf(range: CellRange): string {
  return `${range.left}:${range.right}:${range.bottom - range.top}`;
}

function mergeMasters(merges: readonly CellRange[]): Map<string, CellRange> {
  const masters = new Map<string, CellRange>();
  for (const merge of merges) masters.set(`${merge.top}:${merge.left}`, merge);
  return masters;
}

/** A merged cell running across the table (over the answer column, or three columns or more) is a banner. */
function spansTable(range: CellRange, layout: Layout): boolean {
  const { answerColumn } = layout.mapping;
  if (range.right - range.left >= 2) return true;
  return answerColumn !== null && answerColumn >= range.left && answerColumn <= range.right;
}
