import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { AnalyticsView } from '../../../../common/schemas/admin';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** The organization's usage over the last `days` days (every workspace). */
export function getAnalytics(days: number, signal?: AbortSignal): Promise<AnalyticsView> {
  return api.get(`/api/admin/analytics?days=${String(days)}`, AnalyticsView, { signal });
}

export function analyticsQueryOptions(days: number) {
  return queryOptions({
    queryKey: queryKeys.admin.analytics(days),
    queryFn: ({ signal }) => getAnalytics(days, signal),
    meta: { scope: 'organization' },
  });
}

/** Fresh each time the tab opens (questions keep being asked); the previous period stays while another loads. */
export function useAnalytics(days: number) {
  return useQuery({ ...analyticsQueryOptions(days), refetchOnMount: 'always', placeholderData: keepPreviousData });
}
