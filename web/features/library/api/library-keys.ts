import type { QueryClient } from '@tanstack/react-query';
import type { AnswerStatus } from '../../../../common/schemas/knowledge';

/** The library's list filter as the UI holds it: no status means approved + draft (the "All" tab). */
export interface LibraryFilter {
  q: string;
  status: AnswerStatus | undefined;
  tag: string | undefined;
}

/** Every library query sits under one root, so a change anywhere refreshes them all with one call. */
export const libraryKeys = {
  root: ['canonical-answers'] as const,
  list: (filter: LibraryFilter) => ['canonical-answers', 'list', filter] as const,
  counts: (q: string, tag: string | undefined) => ['canonical-answers', 'counts', { q, tag }] as const,
  ids: (filter: LibraryFilter) => ['canonical-answers', 'ids', filter] as const,
  tags: ['canonical-answers', 'tags'] as const,
  issues: ['canonical-answers', 'issues'] as const,
  versions: (id: string) => ['canonical-answers', 'versions', id] as const,
};

/** The query string of a filter, leaving out empty parts so the server applies its defaults. */
export function filterParams(filter: Partial<LibraryFilter>): URLSearchParams {
  const params = new URLSearchParams();
  const q = filter.q?.trim();
  if (q) params.set('q', q);
  if (filter.status) params.set('status', filter.status);
  if (filter.tag) params.set('tag', filter.tag);
  return params;
}

/**
 * After any change to the library: its lists, counts, tags and issues are stale, and so is the sidebar's
 * canonicalCount (and openConflicts) in the organization stats.
 */
export function invalidateLibrary(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: libraryKeys.root }),
    queryClient.invalidateQueries({ queryKey: ['organization-stats'] }),
  ]).then(() => undefined);
}
