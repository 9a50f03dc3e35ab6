import { formatNumber } from '../../lib/format';

/**
 * What a row box of the preview holds, as a mapping's 0-based row index: '' is no row (null), '7' is the sheet's
 * row 7 (6). Anything else, or a row past the sheet's last, is `invalid` with the sentence to show under the box.
 */
export function parseRowNumber(text: string, rowCount: number): number | null | { invalid: string } {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1) return { invalid: 'Enter a row number, 1 or more.' };
  const row = Number(trimmed);
  if (row > rowCount) {
    return { invalid: `The sheet has ${formatNumber(rowCount)} ${rowCount === 1 ? 'row' : 'rows'}.` };
  }
  return row - 1;
}

/** A mapping's 0-based row as a row box shows it: the spreadsheet's row number, or '' for none (-1 or unset). */
export function rowNumberText(index: number | undefined): string {
  return index === undefined || index < 0 ? '' : String(index + 1);
}

/** A clause of the server's or common/'s validation ("the first question row … is after …") as a sentence. */
export function asSentence(clause: string): string {
  const text = clause.trim().replace(/[.!?]$/, '');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
