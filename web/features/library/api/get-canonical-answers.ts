import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { CanonicalAnswerView } from '../../../../common/schemas/knowledge';
import { apiFetchWithHeaders } from '../../../lib/api';
import { nextPageOffset, totalFromHeader } from '../../../lib/offset-pages';
import { filterParams, type LibraryFilter } from './library-filter';
import { queryKeys } from '../../../app/query-keys';

/** Cards per page: enough to fill a tall screen, few enough that a 10,000-entry library stays light. */
export const LIBRARY_PAGE_SIZE = 50;

const AnswerList = z.array(CanonicalAnswerView);

export interface AnswerPage {
  items: CanonicalAnswerView[];
  /** Entries matching the filter in all pages, from X-Total-Count. */
  total: number;
  offset: number;
}

export async function getCanonicalAnswers(
  filter: LibraryFilter,
  offset: number,
  signal?: AbortSignal,
): Promise<AnswerPage> {
  const params = filterParams(filter);
  params.set('limit', String(LIBRARY_PAGE_SIZE));
  params.set('offset', String(offset));
  const { data, headers } = await apiFetchWithHeaders(
    'GET',
    `/api/canonical-answers?${params.toString()}`,
    AnswerList,
    {
      signal,
    },
  );
  return { items: data, total: totalFromHeader(headers, offset, data.length, LIBRARY_PAGE_SIZE), offset };
}

export function canonicalAnswersQueryOptions(filter: LibraryFilter) {
  return infiniteQueryOptions({
    queryKey: queryKeys.library.list(filter),
    queryFn: ({ pageParam, signal }) => getCanonicalAnswers(filter, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last) => nextPageOffset(last.offset, last.items.length, last.total),
  });
}

/** One page of 50 at a time; the previous filter's cards stay on screen while a new search loads. */
export function useCanonicalAnswers(filter: LibraryFilter) {
  return useInfiniteQuery({ ...canonicalAnswersQueryOptions(filter), placeholderData: keepPreviousData });
}
