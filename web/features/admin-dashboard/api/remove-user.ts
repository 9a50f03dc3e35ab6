import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SuccessResponse } from '../../../../common/schemas/errors';
import { api } from '../../../lib/api';
import { adminKeys } from './admin-keys';

/** Ends the user's access: sessions close and sign-in is refused; their history keeps their name. */
export function removeUser(userId: string) {
  return api.del(`/api/organizations/users/${encodeURIComponent(userId)}`, SuccessResponse, {
    errorFallback: 'Failed to remove the user',
  });
}

export function useRemoveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeUser,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['organization-users'] }),
      ]);
    },
  });
}
