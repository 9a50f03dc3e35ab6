import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { SuccessResponse } from '../../../common/schemas/errors';
import { api } from '../../lib/api';
import { invalidateOrganizationUsers } from './get-organization-users';

// Named so a user list can tell which of its rows are being removed without holding the mutation itself.
const removeUserKey = ['remove-user'] as const;

export async function removeUser(userId: string): Promise<void> {
  await api.del(`/api/organizations/users/${encodeURIComponent(userId)}`, SuccessResponse, {
    errorFallback: 'Failed to remove user',
  });
}

/** Ends the user's access at once (their sessions end); their past work and audit entries stay. */
export function useRemoveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: removeUserKey,
    mutationFn: removeUser,
    onSuccess: () => invalidateOrganizationUsers(queryClient),
  });
}

/** The ids of the users whose removal is under way, for their rows to show it. */
export function useUsersBeingRemoved(): string[] {
  return useMutationState({
    filters: { mutationKey: removeUserKey, status: 'pending' },
    select: (mutation) => mutation.state.variables,
  }).filter((id): id is string => typeof id === 'string');
}
