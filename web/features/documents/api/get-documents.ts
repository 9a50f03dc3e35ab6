import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { DocumentView } from '../../../../common/schemas/documents';
import { api } from '../../../lib/api';
import { documentFilterParams, type DocumentFilter } from './document-filter';
import { queryKeys } from '../../../app/query-keys';

/** How often the list is refetched while a document's text is still being extracted. */
export const DOCUMENT_POLL_MS = 2000;

const DocumentList = z.array(DocumentView);

/** The workspace's documents matching the filter, newest first. */
export function getDocuments(filter: DocumentFilter, signal?: AbortSignal): Promise<DocumentView[]> {
  const query = documentFilterParams(filter).toString();
  return api.get(query ? `/api/documents?${query}` : '/api/documents', DocumentList, { signal });
}

export function documentsQueryOptions(filter: DocumentFilter) {
  return queryOptions({
    queryKey: queryKeys.documents.list(filter),
    queryFn: ({ signal }) => getDocuments(filter, signal),
    // Processing ends on the server with no event to the browser: poll only while something is still processing.
    refetchInterval: (query) =>
      query.state.data?.some((document) => document.status === 'processing') ? DOCUMENT_POLL_MS : false,
  });
}

/** The list for one filter; the previous filter's cards stay on screen while a new search loads. */
export function useDocuments(filter: DocumentFilter) {
  return useQuery({ ...documentsQueryOptions(filter), placeholderData: keepPreviousData });
}
