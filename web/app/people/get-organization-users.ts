import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { UserView } from '../../../common/schemas/auth';
import { api } from '../../lib/api';
import { queryKeys } from '../query-keys';

const UserList = z.array(UserView);

export function getOrganizationUsers(): Promise<UserView[]> {
  return api.get('/api/organizations/users', UserList);
}

export const organizationUsersQueryOptions = queryOptions({
  queryKey: queryKeys.organizationUsers.root,
  queryFn: getOrganizationUsers,
  meta: { scope: 'organization' },
});

/** Every live user of the organization; `enabled: false` waits, e.g. until the caller may see them. */
export function useOrganizationUsers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...organizationUsersQueryOptions, enabled });
}

export function invalidateOrganizationUsers(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.organizationUsers.root });
}
