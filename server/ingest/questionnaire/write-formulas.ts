import { type CellAddress, rangeContains } from './write-ref';
import type { CellEdit } from './write-sheet-patch';
import { findCell, type WorksheetScan } from './write-sheet-scan';

/**
 * What overwriting cells does to the sheet's formulas. Formulas tie cells together in two ways that break when one
 * cell is replaced by text:
 * - a shared formula's text lives only in its master cell; the others say "same as si=N, shifted". Overwrite the
 *   master and they point at nothing, which Excel reports as a damaged file. They are frozen to their last values
 *   (re-deriving each one's own formula would mean translating references).
 * - an array (or data-table) formula owns its whole range; a cell inside it cannot be set on its own, so the
 *   formula is frozen and its range keeps its last values.
 */
export function formulaEdits(
  scan: WorksheetScan,
  cells: Map<number, Map<number, CellEdit>>,
): { frozen: CellAddress[]; removesFormulas: boolean } {
  const written: CellAddress[] = [];
  for (const [row, rowEdits] of cells) {
    for (const [column, edit] of rowEdits) if (edit.kind === 'text') written.push({ row, column });
  }
  const isWritten = (row: number, column: number) => cells.get(row)?.get(column)?.kind === 'text';
  let removesFormulas = false;
  const orphanedShared = new Set<string>();
  for (const { row, column } of written) {
    const formula = findCell(scan, row, column)?.formula;
    if (!formula) continue;
    removesFormulas = true;
    if (formula.type === 'shared' && formula.master && formula.sharedIndex !== null) {
      orphanedShared.add(formula.sharedIndex);
    }
  }
  const frozen: CellAddress[] = [];
  if (orphanedShared.size > 0) {
    for (const row of scan.rows) {
      for (const { formula, column } of row.cells) {
        if (formula?.type !== 'shared' || formula.master || isWritten(row.row, column)) continue;
        if (formula.sharedIndex !== null && orphanedShared.has(formula.sharedIndex)) {
          frozen.push({ row: row.row, column });
        }
      }
    }
  }
  for (const { row, column, ref } of scan.rangedFormulas) {
    if (!isWritten(row, column) && written.some((address) => rangeContains(ref, address))) frozen.push({ row, column });
  }
  return { frozen, removesFormulas: removesFormulas || frozen.length > 0 };
}
