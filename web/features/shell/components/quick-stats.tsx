import type { OrganizationStats } from '../../../../common/schemas/organizations';
import { formatNumber } from '../../../lib/format';

const STAT_ROWS: ReadonlyArray<{ key: keyof OrganizationStats; label: string }> = [
  { key: 'canonicalCount', label: 'Canonical Answers' },
  { key: 'documentCount', label: 'Documents' },
  { key: 'monthlyQueries', label: 'Queries This Month' },
  { key: 'pendingTasks', label: 'Pending Tasks' },
  { key: 'openConflicts', label: 'Open Conflicts' },
];

export function QuickStats({ stats }: { stats: OrganizationStats | undefined }) {
  return (
    <section aria-labelledby="quick-stats-heading" className="grid gap-2">
      <h2 id="quick-stats-heading" className="px-3 text-xs font-medium tracking-wide text-muted-foreground uppercase">
        Quick Stats
      </h2>
      {stats ? (
        <dl className="grid gap-1 rounded-lg border bg-background px-3 py-2 text-sm">
          {STAT_ROWS.map(({ key, label }) => (
            <div key={key} className="flex items-center justify-between gap-2 py-0.5">
              <dt className="text-muted-foreground">{label}</dt>
              <dd className="font-semibold tabular-nums">{formatNumber(stats[key])}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="px-3 text-sm text-muted-foreground">Stats are unavailable right now.</p>
      )}
    </section>
  );
}
