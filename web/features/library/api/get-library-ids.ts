import { queryOptions } from '@tanstack/react-query';
import { LibraryIds } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';
import { filterParams, type LibraryFilter } from './library-filter';
import { queryKeys } from '../../../app/query-keys';

/** Every id matching the filter, across all pages: what "Select All" selects. */
export async function getLibraryIds(filter: LibraryFilter): Promise<string[]> {
  return (await api.get(`/api/canonical-answers/ids?${filterParams(filter).toString()}`, LibraryIds)).ids;
}

// Read with queryClient.fetchQuery when the user asks, never on render: most visits never select everything.
export function libraryIdsQueryOptions(filter: LibraryFilter) {
  return queryOptions({ queryKey: queryKeys.library.ids(filter), queryFn: () => getLibraryIds(filter), staleTime: 0 });
}
