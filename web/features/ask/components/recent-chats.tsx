import { Link } from 'react-router';
import { History, MessagesSquare } from 'lucide-react';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
import { useRecentSessions } from '../api/get-recent-sessions';

/** PRODUCT §7: the caller's latest chats on the empty Ask screen, each reopened by a click. Nothing while none. */
export function RecentChats() {
  const query = useRecentSessions();
  // A side list: while loading or failing it is simply not there (Chat History is the full record).
  if (!query.data || query.data.length === 0) return null;
  return (
    <section aria-labelledby="recent-chats-heading" className="mx-auto grid w-full max-w-2xl gap-2 px-2 pb-8">
      <div className="flex items-center justify-between gap-2">
        <h2 id="recent-chats-heading" className="flex items-center gap-2 text-sm font-semibold">
          <History className="size-4 text-muted-foreground" aria-hidden />
          Recent chats
        </h2>
        <Link
          to={paths.chatHistory}
          className="rounded-sm text-xs font-medium text-primary outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          All chats
        </Link>
      </div>
      <ul className="grid gap-2" aria-label="Recent chats">
        {query.data.map((session) => (
          <li key={session.id}>
            <Link
              to={paths.chat(session.id)}
              className="flex items-center gap-3 rounded-lg border bg-background px-4 py-2.5 text-sm shadow-xs outline-none hover:border-indigo-300 focus-visible:ring-2 focus-visible:ring-ring"
            >
              <MessagesSquare className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <span className="min-w-0 flex-1 truncate font-medium">{session.title || 'Untitled Session'}</span>
              <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                {formatNumber(session.entryCount)} {session.entryCount === 1 ? 'question' : 'questions'}
                <span className="hidden sm:inline"> · {formatDateTime(session.createdAt)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
