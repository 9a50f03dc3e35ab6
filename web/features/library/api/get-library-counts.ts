import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { LibraryCounts } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';
import { filterParams } from './library-filter';
import { queryKeys } from '../../../app/query-keys';

export function getLibraryCounts(q: string, tag: string | undefined): Promise<LibraryCounts> {
  return api.get(`/api/canonical-answers/counts?${filterParams({ q, tag }).toString()}`, LibraryCounts);
}

export function libraryCountsQueryOptions(q: string, tag: string | undefined) {
  return queryOptions({ queryKey: queryKeys.library.counts(q, tag), queryFn: () => getLibraryCounts(q, tag) });
}

/** The tab labels' numbers for the current search and tag. */
export function useLibraryCounts(q: string, tag: string | undefined) {
  return useQuery({ ...libraryCountsQueryOptions(q, tag), placeholderData: keepPreviousData });
}
