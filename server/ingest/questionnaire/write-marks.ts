import { chooseAllowedValue } from './write-choice';
import { findCell, type WorksheetScan } from './write-sheet-scan';
import type { ChoiceTarget, ShortAnswer } from './write-types';
import { attributeValue, findElement } from './write-xml';

/**
 * The choice column an answer is marked under, or null: when the answer names none of the choices, and whenever
 * any choice cell of the row holds something (the customer's mark under another column, a formula, any text).
 * Judged on the sheet itself, so a row the customer answered is never marked twice, whatever the import made of it.
 */
export function choiceMark(
  scan: WorksheetScan,
  emptyStrings: ReadonlySet<number>,
  row: number,
  choices: readonly ChoiceTarget[],
  short: ShortAnswer | null | undefined,
  /** The choice a person picked by its label (null: no mark), which wins over `short`; undefined when none. */
  picked?: string | null,
): ChoiceTarget | null {
  const chosen =
    picked === undefined ? choiceFor(short, choices) : (choices.find((choice) => choice.label === picked) ?? null);
  if (!chosen) return null;
  if (choices.some((choice) => !showsNothing(scan, emptyStrings, row, choice.column))) return null;
  // A row merged across its choices is a banner, and a cell under another's merge shows nothing it is given.
  const merged = scan.merges.some(
    (m) => m.top <= row && row <= m.bottom && m.left <= chosen.column && chosen.column <= m.right,
  );
  return merged ? null : chosen;
}

/** The choice column whose label says `short` (Yes, No, N/A as "Not Applicable"…), if any. */
export function choiceFor(
  short: ShortAnswer | null | undefined,
  choices: readonly ChoiceTarget[],
): ChoiceTarget | null {
  if (!short || choices.length === 0) return null;
  const label = chooseAllowedValue(
    short,
    choices.map((choice) => choice.label),
  );
  return choices.find((choice) => choice.label === label) ?? null;
}

/**
 * The cell is absent, has no value, or has an empty one: an empty `<v>`, an inline string without text, or a
 * shared string that is empty. A formula, even one showing nothing, is the workbook's.
 */
function showsNothing(scan: WorksheetScan, emptyStrings: ReadonlySet<number>, row: number, column: number): boolean {
  const cell = findCell(scan, row, column);
  if (!cell?.hasValue) return true;
  if (cell.formula) return false;
  const inner = scan.xml.slice(cell.openTagEnd, cell.contentEnd);
  const value = findElement(inner, `${scan.prefix}v`);
  if (value) {
    const text = value.selfClosing ? '' : inner.slice(value.openTagEnd, value.contentEnd);
    if (text === '') return true;
    return attributeValue(cell.attributes, 't') === 's' && emptyStrings.has(Number(text.trim()));
  }
  const inline = findElement(inner, `${scan.prefix}is`);
  return inline !== null && !TEXT_RUN.test(inline.selfClosing ? '' : inner.slice(inline.openTagEnd, inline.contentEnd));
}

// A text element (any prefix) with something between its tags.
const TEXT_RUN = /<(?:[\w.-]+:)?t(?:\s[^>]*)?>[^<]/;
