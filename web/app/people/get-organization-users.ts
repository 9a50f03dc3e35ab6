import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { UserView } from '../../../common/schemas/auth';
import { api } from '../../lib/api';

const UserList = z.array(UserView);

/**
 * Every list of the organization's people sits under this key (the other screens' pickers, the Admin Dashboard's
 * users), so one invalidation after a role change, a removal or a profile edit refreshes them all.
 */
export const organizationUsersKey = ['organization-users'] as const;

export function getOrganizationUsers(): Promise<UserView[]> {
  return api.get('/api/organizations/users', UserList);
}

export const organizationUsersQueryOptions = queryOptions({
  queryKey: organizationUsersKey,
  queryFn: getOrganizationUsers,
  meta: { scope: 'organization' },
});

/** Every live user of the organization; `enabled: false` waits, e.g. until the caller may see them. */
export function useOrganizationUsers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...organizationUsersQueryOptions, enabled });
}

export function invalidateOrganizationUsers(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: organizationUsersKey });
}
