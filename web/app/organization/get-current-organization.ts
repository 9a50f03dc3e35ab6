import { queryOptions, useQuery } from '@tanstack/react-query';
import { OrganizationView } from '../../../common/schemas/organizations';
import { api } from '../../lib/api';
import { queryKeys } from '../query-keys';

export function getCurrentOrganization(): Promise<OrganizationView> {
  return api.get('/api/organizations/current', OrganizationView);
}

export const currentOrganizationQueryOptions = queryOptions({
  queryKey: queryKeys.organization,
  queryFn: getCurrentOrganization,
  meta: { scope: 'organization' },
});

export function useCurrentOrganization() {
  return useQuery(currentOrganizationQueryOptions);
}
