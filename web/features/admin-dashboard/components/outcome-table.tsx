import type { OutcomeCounts } from '../../../../common/schemas/accuracy';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/format';
import { OUTCOME_COLUMNS, formatShare } from '../accuracy-chart-data';

export interface OutcomeRow {
  key: string;
  label: string;
  counts: OutcomeCounts;
}

interface OutcomeTableProps {
  /** The table's accessible name, e.g. "By confidence band". */
  label: string;
  /** The first column's heading: Band, Answer type, Topic. */
  groupHeading: string;
  rows: readonly OutcomeRow[];
  busy?: boolean;
}

/** Reviewed machine answers of each group by outcome, and the share kept unchanged. */
export function OutcomeTable({ label, groupHeading, rows, busy = false }: OutcomeTableProps) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">Nothing reviewed in this period.</p>;
  return (
    // Seven figures per row do not fit a phone: the table scrolls sideways inside its box, never the page. The box
    // takes focus so a keyboard can scroll it too.
    <div
      className={cn('overflow-x-auto rounded-lg border', busy && 'opacity-60')}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      <table className="w-full text-sm" aria-label={label} aria-busy={busy || undefined}>
        <thead>
          <tr className="border-b bg-surface text-xs text-muted-foreground">
            <th scope="col" className="py-2 pr-3 pl-3 text-left font-medium">
              {groupHeading}
            </th>
            {OUTCOME_COLUMNS.map((column) => (
              <th key={column.key} scope="col" className="py-2 pr-3 text-right font-medium whitespace-nowrap">
                {column.label}
              </th>
            ))}
            <th scope="col" className="py-2 pr-3 text-right font-medium whitespace-nowrap">
              Kept unchanged
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="border-b last:border-b-0">
              <th
                scope="row"
                className="max-w-36 min-w-24 py-2 pr-3 pl-3 text-left font-medium break-words sm:max-w-64"
              >
                {row.label}
              </th>
              {OUTCOME_COLUMNS.map((column) => (
                <td key={column.key} className="py-2 pr-3 text-right tabular-nums">
                  {formatNumber(row.counts[column.key])}
                </td>
              ))}
              <td className="py-2 pr-3 text-right font-medium tabular-nums">{formatShare(row.counts.keptShare)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
