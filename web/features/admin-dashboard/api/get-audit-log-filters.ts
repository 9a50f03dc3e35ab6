import { queryOptions, useQuery } from '@tanstack/react-query';
import { AuditLogFilters } from '../../../../common/schemas/admin';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** The actions and acting users the organization's trail holds, for the audit log's filters. */
export function getAuditLogFilters(): Promise<AuditLogFilters> {
  return api.get('/api/admin/audit-logs/filters', AuditLogFilters);
}

export const auditLogFiltersQueryOptions = queryOptions({
  queryKey: queryKeys.admin.auditLogFilters,
  queryFn: getAuditLogFilters,
  meta: { scope: 'organization' },
});

export function useAuditLogFilters() {
  return useQuery({ ...auditLogFiltersQueryOptions, refetchOnMount: 'always' });
}
