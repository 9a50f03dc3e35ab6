import { useEffect, useMemo, useRef, type ReactNode, type RefObject } from 'react';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api';
import { formatNumber } from '../../../lib/format';
import { useCanonicalAnswers } from '../api/get-canonical-answers';
import type { LibraryFilter } from '../api/library-filter';
import type { LibraryPermissions } from '../use-library-permissions';
import { AnswerCard, type AnswerCardHandlers } from './answer-card';

interface AnswerListProps {
  filter: LibraryFilter;
  selectedIds: ReadonlySet<string>;
  busyId: string | null;
  permissions: LibraryPermissions;
  handlers: AnswerCardHandlers;
  /** What to show when the filter matches nothing. */
  empty: ReactNode;
  /** The element that scrolls the list; the next page loads as its bottom comes near. */
  scrollRoot: RefObject<HTMLElement | null>;
}

/**
 * The cards of one tab, fetched 50 at a time. Only loaded pages are rendered, so a 10,000-entry library costs what
 * the user has scrolled through, not what it holds.
 */
export function AnswerList({ filter, selectedIds, busyId, permissions, handlers, empty, scrollRoot }: AnswerListProps) {
  const query = useCanonicalAnswers(filter);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const answers = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const total = query.data?.pages.at(-1)?.total ?? 0;
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const target = sentinel.current;
    if (!target || !hasNextPage) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      // Start the next page well before the last card is on screen, so scrolling rarely waits.
      { root: scrollRoot.current, rootMargin: '0px 0px 600px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, scrollRoot]);

  if (query.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner className="size-6" label="Loading answers" />
      </div>
    );
  }

  if (query.isError && answers.length === 0) {
    return (
      <LoadError error={query.error} fallback="Could not load the library." onRetry={() => void query.refetch()} />
    );
  }

  if (answers.length === 0) return <>{empty}</>;

  return (
    <div className="grid gap-3" aria-busy={query.isPlaceholderData || undefined}>
      <ul
        className={query.isPlaceholderData ? 'grid gap-3 opacity-60 transition-opacity' : 'grid gap-3'}
        aria-label="Canonical answers"
      >
        {answers.map((answer) => (
          <li key={answer.id}>
            <AnswerCard
              answer={answer}
              selected={selectedIds.has(answer.id)}
              busy={busyId === answer.id}
              permissions={permissions}
              handlers={handlers}
            />
          </li>
        ))}
      </ul>
      <div ref={sentinel} className="flex flex-col items-center gap-2 py-4 text-xs text-muted-foreground">
        <span>
          Showing {formatNumber(answers.length)} of {formatNumber(total)}
        </span>
        {hasNextPage && (
          <Button variant="outline" size="sm" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage && <Spinner className="size-4" label="Loading more answers" />}
            Load more
          </Button>
        )}
        {query.isFetchNextPageError && (
          <p role="alert" className="text-destructive">
            {errorMessage(query.error, 'Could not load more answers.')}
          </p>
        )}
      </div>
    </div>
  );
}
