import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { HistoryEntryView } from '../../../../common/schemas/qa';
import { apiFetchWithHeaders } from '../../../lib/api';
import { totalFromHeader } from '../../../lib/offset-pages';
import { filterBody, type HistoryFilter } from '../history-filter';
import { queryKeys } from '../../../app/query-keys';

/** Entries per page: a screenful of cards with their answers. */
export const HISTORY_PAGE_SIZE = 25;

const EntryList = z.array(HistoryEntryView);

export interface HistoryPage {
  entries: HistoryEntryView[];
  /** Entries matching the filter in all pages, from X-Total-Count. */
  total: number;
}

/** One page of asked questions, newest first: everyone's for admin-level roles, else the caller's own. */
export async function getHistoryEntries(
  filter: HistoryFilter,
  offset: number,
  signal?: AbortSignal,
): Promise<HistoryPage> {
  const params = new URLSearchParams({
    ...filterBody(filter),
    limit: String(HISTORY_PAGE_SIZE),
    offset: String(offset),
  });
  const { data, headers } = await apiFetchWithHeaders('GET', `/api/qa/entries/all?${params.toString()}`, EntryList, {
    signal,
  });
  return { entries: data, total: totalFromHeader(headers, offset, data.length) };
}

export function historyEntriesQueryOptions(filter: HistoryFilter, offset: number) {
  return queryOptions({
    queryKey: queryKeys.qa.historyEntries(filter, offset),
    queryFn: ({ signal }) => getHistoryEntries(filter, offset, signal),
  });
}

/** The previous page stays on screen while the next one or a new filter loads. */
export function useHistoryEntries(filter: HistoryFilter, offset: number) {
  return useQuery({ ...historyEntriesQueryOptions(filter, offset), placeholderData: keepPreviousData });
}
