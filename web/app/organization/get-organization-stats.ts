import { queryOptions, useQuery } from '@tanstack/react-query';
import { STATS_REFETCH_MS } from '../../../common/constants';
import { OrganizationStats } from '../../../common/schemas/organizations';
import { api } from '../../lib/api';
import { queryKeys } from '../query-keys';

export function getOrganizationStats(): Promise<OrganizationStats> {
  return api.get('/api/organizations/stats', OrganizationStats);
}

// No organization scope: the counts follow the selected workspace, so a workspace switch refetches them.
export const organizationStatsQueryOptions = queryOptions({
  queryKey: queryKeys.organizationStats,
  queryFn: getOrganizationStats,
  refetchInterval: STATS_REFETCH_MS,
});

/** PRODUCT §12: refetched every 30 s. Waits for `enabled` so the first fetch already carries the chosen workspace. */
export function useOrganizationStats({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...organizationStatsQueryOptions, enabled });
}
