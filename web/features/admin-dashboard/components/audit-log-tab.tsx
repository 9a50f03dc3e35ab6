import { useState } from 'react';
import { ScrollText } from 'lucide-react';
import { EmptyState } from '../../../components/ui/empty-state';
import { LoadError } from '../../../components/ui/load-error';
import { Pager } from '../../../components/ui/pager';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { cn } from '../../../lib/cn';
import { formatDateTime } from '../../../lib/format';
import { AUDIT_PAGE_SIZE, useAuditLogs } from '../api/get-audit-logs';
import { useAuditLogFilters } from '../api/get-audit-log-filters';
import {
  auditActor,
  formatAuditAction,
  formatAuditDetails,
  shortEntityId,
  type AuditLogFilter,
} from '../audit-log-format';
import { SectionHeader } from './section-header';

/** Radix Select items cannot have an empty value; this one stands for "no filter". */
const ALL = 'all';

function AuditFilters({ filter, onChange }: { filter: AuditLogFilter; onChange: (next: AuditLogFilter) => void }) {
  const choices = useAuditLogFilters();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Select
        value={filter.action ?? ALL}
        onValueChange={(action) => onChange({ ...filter, action: action === ALL ? undefined : action })}
      >
        <SelectTrigger className="w-60" aria-label="Action">
          <SelectValue placeholder="All actions" />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>All actions</SelectItem>
          {choices.data?.actions.map((action) => (
            <SelectItem key={action} value={action}>
              {formatAuditAction(action)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Select
        value={filter.userId ?? ALL}
        onValueChange={(userId) => onChange({ ...filter, userId: userId === ALL ? undefined : userId })}
      >
        <SelectTrigger className="w-48" aria-label="User">
          <SelectValue placeholder="All users" />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>All users</SelectItem>
          {choices.data?.users.map((user) => (
            <SelectItem key={user.id} value={user.id}>
              {user.username ?? user.id.slice(0, 8)}
            </SelectItem>
          ))}
          {choices.data?.hasSystem && <SelectItem value="system">System</SelectItem>}
        </SelectContent>
      </Select>
    </div>
  );
}

function AuditTable({ filter }: { filter: AuditLogFilter }) {
  // The page belongs to one filter: any change of filter starts again from the first page.
  const filterKey = JSON.stringify(filter);
  const [paging, setPaging] = useState({ filterKey, offset: 0 });
  const offset = paging.filterKey === filterKey ? paging.offset : 0;
  const logs = useAuditLogs(filter, offset);

  if (logs.isPending) {
    return (
      <p className="py-8 text-center text-sm text-muted-foreground" role="status">
        Loading audit logs...
      </p>
    );
  }
  if (logs.isError && !logs.data) {
    return (
      <LoadError error={logs.error} fallback="Could not load the audit log." onRetry={() => void logs.refetch()} />
    );
  }
  const { rows, total } = logs.data;
  if (rows.length === 0) {
    return (
      <EmptyState
        icon={<ScrollText aria-hidden />}
        title="No matching entries"
        description="No change in the audit log matches this action and user."
      />
    );
  }
  return (
    <div className="grid gap-3">
      <div className={cn('overflow-x-auto rounded-xl border bg-background', logs.isPlaceholderData && 'opacity-60')}>
        <table className="w-full text-sm" aria-label="Audit log" aria-busy={logs.isPlaceholderData || undefined}>
          <thead>
            <tr className="border-b bg-surface text-left text-xs text-muted-foreground">
              <th scope="col" className="py-2 pr-4 pl-4 font-medium">
                Action
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                User
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Entity
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Timestamp
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const details = formatAuditDetails(row.details);
              return (
                <tr key={row.id} className="border-b align-top last:border-b-0">
                  <td className="max-w-80 py-2.5 pr-4 pl-4">
                    <p className="text-xs font-semibold tracking-wide">{formatAuditAction(row.action)}</p>
                    {details && (
                      <p className="mt-0.5 truncate text-xs text-muted-foreground" title={details}>
                        {details}
                      </p>
                    )}
                  </td>
                  <td className={cn('py-2.5 pr-4 whitespace-nowrap', !row.userId && 'text-muted-foreground italic')}>
                    {auditActor(row)}
                  </td>
                  <td className="py-2.5 pr-4 whitespace-nowrap">
                    <span>{row.entityType}</span>
                    {row.entityId && (
                      <span className="ml-1.5 font-mono text-xs text-muted-foreground" title={row.entityId}>
                        {shortEntityId(row.entityId)}
                      </span>
                    )}
                  </td>
                  <td className="py-2.5 pr-4 whitespace-nowrap text-muted-foreground">
                    {formatDateTime(row.createdAt)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager
        offset={offset}
        pageSize={AUDIT_PAGE_SIZE}
        total={total}
        busy={logs.isPlaceholderData}
        noun={total === 1 ? 'entry' : 'entries'}
        onOffsetChange={(next) => setPaging({ filterKey, offset: next })}
      />
    </div>
  );
}

/** PRODUCT "Audit Log": every change in the organization, newest first, by action and by user. */
export function AuditLogTab() {
  const [filter, setFilter] = useState<AuditLogFilter>({});
  return (
    <div className="grid gap-4">
      <SectionHeader title="Audit Log" description="Every change made in your organization, newest first." />
      <AuditFilters filter={filter} onChange={setFilter} />
      <AuditTable filter={filter} />
    </div>
  );
}
