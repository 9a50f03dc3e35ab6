import { Link } from 'react-router';
import { ChevronRight, MessagesSquare } from 'lucide-react';
import type { SessionView } from '../../../../common/schemas/qa';
import { Badge } from '../../../components/ui/badge';
import { LoadError } from '../../../components/ui/load-error';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
import { useHistorySessions } from '../api/get-history-sessions';
import { periodStart, type HistoryFilter } from '../history-filter';

/**
 * The sessions endpoint takes no filters (a workspace holds at most a few thousand sessions), so the user, period
 * and search filters apply here; the answer type belongs to single answers and does not narrow sessions.
 */
function matches(session: SessionView, filter: HistoryFilter, since: Date | null): boolean {
  if (filter.userId && session.userId !== filter.userId) return false;
  if (since && new Date(session.createdAt) < since) return false;
  const q = filter.q.trim().toLowerCase();
  if (q && !`${session.title} ${session.customerName ?? ''}`.toLowerCase().includes(q)) return false;
  return true;
}

/**
 * PRODUCT "Chat Sessions" tab: title (or 'Untitled Session'), username, question count and date; each opens its chat
 * on the Ask screen.
 */
export function SessionList({ filter }: { filter: HistoryFilter }) {
  const query = useHistorySessions();
  if (query.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner className="size-6" label="Loading sessions" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadError
        error={query.error}
        fallback="Could not load the chat sessions."
        onRetry={() => void query.refetch()}
      />
    );
  }
  const since = periodStart(filter.period);
  const sessions = query.data.filter((session) => matches(session, filter, since));
  if (sessions.length === 0) {
    return (
      <EmptyState
        icon={<MessagesSquare aria-hidden />}
        title={query.data.length === 0 ? 'No chat sessions yet' : 'No matching sessions'}
        description={
          query.data.length === 0
            ? 'Each chat on the Ask Questions screen is kept here as a session.'
            : 'Try another user, time period or search.'
        }
      />
    );
  }
  return (
    <ul className="grid gap-2" aria-label="Chat sessions">
      {sessions.map((session) => (
        <li key={session.id}>
          <article
            aria-label={session.title || 'Untitled Session'}
            className="relative flex flex-wrap items-center gap-x-4 gap-y-1 rounded-xl border bg-background px-4 py-3 shadow-sm focus-within:ring-2 focus-within:ring-ring hover:border-indigo-300"
          >
            <MessagesSquare className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            <div className="min-w-0 flex-1">
              <h3 className="truncate text-sm font-semibold">
                {/* The whole row is the link (its ::after covers it), named by the title alone. */}
                <Link
                  to={paths.chat(session.id)}
                  className="outline-none after:absolute after:inset-0 after:rounded-xl hover:text-primary"
                >
                  {session.title || 'Untitled Session'}
                </Link>
              </h3>
              <p className="text-xs text-muted-foreground">
                {session.username ?? 'Deleted user'}
                {session.customerName && ` · ${session.customerName}`}
              </p>
            </div>
            <Badge variant="secondary" className="tabular-nums">
              {formatNumber(session.entryCount)} {session.entryCount === 1 ? 'question' : 'questions'}
            </Badge>
            <time dateTime={session.createdAt} className="text-xs text-muted-foreground">
              {formatDateTime(session.createdAt)}
            </time>
            <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          </article>
        </li>
      ))}
    </ul>
  );
}
