import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { CanonicalAnswerView } from '../../../../common/schemas/knowledge';
import { apiFetchWithHeaders } from '../../../lib/api';
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
  const header = headers.get('x-total-count');
  const total = header === null ? Number.NaN : Number(header);
  // Without the header the page itself is the best estimate: a full page may have more after it, a short one is last.
  const fallback = offset + data.length + (data.length === LIBRARY_PAGE_SIZE ? 1 : 0);
  return { items: data, total: Number.isFinite(total) ? total : fallback, offset };
}

export function canonicalAnswersQueryOptions(filter: LibraryFilter) {
  return infiniteQueryOptions({
    queryKey: queryKeys.library.list(filter),
    queryFn: ({ pageParam, signal }) => getCanonicalAnswers(filter, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.offset + last.items.length;
      return last.items.length > 0 && next < last.total ? next : undefined;
    },
  });
}

/** One page of 50 at a time; the previous filter's cards stay on screen while a new search loads. */
export function useCanonicalAnswers(filter: LibraryFilter) {
  return useInfiniteQuery({ ...canonicalAnswersQueryOptions(filter), placeholderData: keepPreviousData });
}
