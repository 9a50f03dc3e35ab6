import type { DOCUMENT_FILTERS } from '../../../../common/schemas/documents';

export type DocumentTypeFilter = (typeof DOCUMENT_FILTERS)[number];

/** The Document Library's list filter as the UI holds it. */
export interface DocumentFilter {
  q: string;
  type: DocumentTypeFilter;
}

/** The query string of a filter, leaving out the defaults so the server applies its own. */
export function documentFilterParams(filter: DocumentFilter): URLSearchParams {
  const params = new URLSearchParams();
  const q = filter.q.trim();
  if (q) params.set('q', q);
  if (filter.type !== 'all') params.set('type', filter.type);
  return params;
}
