import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserView } from '../../../../common/schemas/auth';
import type { Role } from '../../../../common/roles';
import { api } from '../../../lib/api';
import { meQueryKey } from '../../auth/api/get-me';
import { adminKeys } from './admin-keys';

export function changeUserRole({ userId, role }: { userId: string; role: Role }): Promise<UserView> {
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
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['organization-users'] }),
        // An admin changing their own role changes what the app lets them do.
        queryClient.invalidateQueries({ queryKey: meQueryKey }),
      ]);
    },
  });
}
