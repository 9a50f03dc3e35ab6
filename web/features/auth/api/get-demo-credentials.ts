import { queryOptions, useQuery } from '@tanstack/react-query';
import { DemoCredentials } from '../../../../common/schemas/auth';
import { api } from '../../../lib/api';

export function getDemoCredentials(): Promise<DemoCredentials> {
  return api.get('/api/auth/demo-credentials', DemoCredentials);
}

export const demoCredentialsQueryOptions = queryOptions({
  queryKey: ['auth', 'demo-credentials'],
  queryFn: getDemoCredentials,
  meta: { scope: 'organization' },
});

export function useDemoCredentials() {
  return useQuery(demoCredentialsQueryOptions);
}
