import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { UserView } from '../../../../common/schemas/auth';
import { api } from '../../../lib/api';

const UserList = z.array(UserView);

export function getOrganizationUsers(): Promise<UserView[]> {
  return api.get('/api/organizations/users', UserList);
}

// The same key as the other screens' user lists, so a role change or removal refreshes them all.
export const organizationUsersQueryOptions = queryOptions({
  queryKey: ['organization-users'],
  queryFn: getOrganizationUsers,
  meta: { scope: 'organization' },
});

/** Every live user of the organization, for User Management. */
export function useOrganizationUsers() {
  return useQuery(organizationUsersQueryOptions);
}

export function invalidateOrganizationUsers(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: organizationUsersQueryOptions.queryKey });
}
