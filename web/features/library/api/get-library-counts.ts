import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { LibraryCounts } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';
import { filterParams } from './library-filter';
import { queryKeys } from '../../../app/query-keys';

export function getLibraryCounts(q: string, tag: string | undefined, mine = false): Promise<LibraryCounts> {
  return api.get(`/api/canonical-answers/counts?${filterParams({ q, tag, mine }).toString()}`, LibraryCounts);
}

export function libraryCountsQueryOptions(q: string, tag: string | undefined, mine = false) {
  return queryOptions({
    queryKey: queryKeys.library.counts(q, tag, mine),
    queryFn: () => getLibraryCounts(q, tag, mine),
  });
}

/** The tab labels' numbers for the current search, tag and "owned by me" choice. */
export function useLibraryCounts(q: string, tag: string | undefined, mine = false) {
  return useQuery({ ...libraryCountsQueryOptions(q, tag, mine), placeholderData: keepPreviousData });
}
