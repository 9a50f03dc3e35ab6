import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SuccessResponse } from '../../../../common/schemas/errors';
import { api } from '../../../lib/api';
import { invalidateOrganizationUsers } from './get-organization-users';

export async function removeUser(userId: string): Promise<void> {
  await api.del(`/api/organizations/users/${encodeURIComponent(userId)}`, SuccessResponse, {
    errorFallback: 'Failed to remove user',
  });
}

/** Ends the user's access at once (their sessions end); their past work and audit entries stay. */
export function useRemoveUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeUser, onSuccess: () => invalidateOrganizationUsers(queryClient) });
}
