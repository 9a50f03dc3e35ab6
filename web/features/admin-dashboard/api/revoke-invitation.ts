import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SuccessResponse } from '../../../../common/schemas/errors';
import { api } from '../../../lib/api';
import { adminKeys } from './admin-keys';

export function revokeInvitation(id: string) {
  return api.del(`/api/organizations/invitations/${encodeURIComponent(id)}`, SuccessResponse, {
    errorFallback: 'Failed to revoke the invitation',
  });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
