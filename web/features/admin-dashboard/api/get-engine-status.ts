import { queryOptions, useQuery } from '@tanstack/react-query';
import { EngineStatusView } from '../../../../common/schemas/admin';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** Whether answers use the embedding model or keywords only (admins only). */
export function getEngineStatus(): Promise<EngineStatusView> {
  return api.get('/api/admin/engine', EngineStatusView);
}

export const engineStatusQueryOptions = queryOptions({
  queryKey: queryKeys.admin.engine,
  queryFn: getEngineStatus,
  staleTime: 5 * 60_000,
  meta: { scope: 'organization' },
});

export function useEngineStatus(opts: { enabled: boolean }) {
  return useQuery({ ...engineStatusQueryOptions, enabled: opts.enabled });
}
