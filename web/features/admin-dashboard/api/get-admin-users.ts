import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { AdminUserRow } from '../../../../common/schemas/admin';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

const AdminUserList = z.array(AdminUserRow);

/** PRODUCT §10 GET /api/admin/users: id, username, email, role, lastActive. */
export function getAdminUsers(): Promise<AdminUserRow[]> {
  return api.get('/api/admin/users', AdminUserList);
}

export const adminUsersQueryOptions = queryOptions({
  // Under the organization users' key: the shared role-change and removal hooks refresh this list with the others.
  queryKey: queryKeys.organizationUsers.admin,
  queryFn: getAdminUsers,
  meta: { scope: 'organization' },
});

/** Fetched again whenever the tab opens: last activity moves on while the dialog is closed. */
export function useAdminUsers() {
  return useQuery({ ...adminUsersQueryOptions, refetchOnMount: 'always' });
}
