import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SuccessResponse } from '../../../common/schemas/errors';
import { api } from '../../lib/api';
import { invalidateInvitations } from './get-invitations';

export async function revokeInvitation(id: string): Promise<void> {
  await api.del(`/api/organizations/invitations/${encodeURIComponent(id)}`, SuccessResponse, {
    errorFallback: 'Failed to revoke invitation',
  });
}

/** The invitation's link stops working at once. */
export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeInvitation, onSuccess: () => invalidateInvitations(queryClient) });
}
