import { queryOptions, useQuery } from '@tanstack/react-query';
import { DemoCredentials } from '../../../../common/schemas/auth';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

export function getDemoCredentials(): Promise<DemoCredentials> {
  return api.get('/api/auth/demo-credentials', DemoCredentials);
}

export const demoCredentialsQueryOptions = queryOptions({
  queryKey: queryKeys.demoCredentials,
  queryFn: getDemoCredentials,
  meta: { scope: 'organization' },
});

export function useDemoCredentials() {
  return useQuery(demoCredentialsQueryOptions);
}
