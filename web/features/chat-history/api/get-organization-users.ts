import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { UserView } from '../../../../common/schemas/auth';
import { api } from '../../../lib/api';

const UserList = z.array(UserView);

export function getOrganizationUsers(): Promise<UserView[]> {
  return api.get('/api/organizations/users', UserList);
}

export const organizationUsersQueryOptions = queryOptions({
  queryKey: ['organization-users'],
  queryFn: getOrganizationUsers,
  meta: { scope: 'organization' },
});

/** The organization's people for the User filter; fetched only for those who may see everyone's history. */
export function useOrganizationUsers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...organizationUsersQueryOptions, enabled });
}
