import type { QueryClient } from '@tanstack/react-query';
import type { DOCUMENT_FILTERS } from '../../../../common/schemas/documents';

export type DocumentTypeFilter = (typeof DOCUMENT_FILTERS)[number];

/** The Document Library's list filter as the UI holds it. */
export interface DocumentFilter {
  q: string;
  type: DocumentTypeFilter;
}

/** Every documents query sits under one root, so an upload or delete refreshes them all with one call. */
export const documentKeys = {
  root: ['documents'] as const,
  list: (filter: DocumentFilter) => ['documents', 'list', filter] as const,
  chunks: (id: string) => ['documents', 'chunks', id] as const,
};

/** The query string of a filter, leaving out the defaults so the server applies its own. */
export function documentFilterParams(filter: DocumentFilter): URLSearchParams {
  const params = new URLSearchParams();
  const q = filter.q.trim();
  if (q) params.set('q', q);
  if (filter.type !== 'all') params.set('type', filter.type);
  return params;
}

/** After an upload or delete: the lists are stale, and so is the sidebar's documentCount in the stats. */
export function invalidateDocuments(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: documentKeys.root }),
    queryClient.invalidateQueries({ queryKey: ['organization-stats'] }),
  ]).then(() => undefined);
}
