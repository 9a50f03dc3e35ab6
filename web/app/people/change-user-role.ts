import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserView } from '../../../common/schemas/auth';
import type { Role } from '../../../common/roles';
import { api } from '../../lib/api';
import { invalidateOrganizationUsers } from './get-organization-users';
import { queryKeys } from '../query-keys';

export interface ChangeUserRoleInput {
  userId: string;
  role: Role;
}

export function changeUserRole({ userId, role }: ChangeUserRoleInput): Promise<UserView> {
  return api.put(
    `/api/organizations/users/${encodeURIComponent(userId)}/role`,
    UserView,
    { role },
    {
      errorFallback: 'Failed to update user role',
    },
  );
}

export function useChangeUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeUserRole,
    onSuccess: async (user) => {
      await invalidateOrganizationUsers(queryClient);
      // An admin who changed their own role now holds other permissions: the screen follows `me`.
      const me = queryClient.getQueryData<{ user: UserView }>(queryKeys.me);
      if (me?.user.id === user.id) await queryClient.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}
