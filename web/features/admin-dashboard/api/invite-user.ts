import { useMutation, useQueryClient } from '@tanstack/react-query';
import { InvitationCreated, type CreateInvitationBody } from '../../../../common/schemas/organizations';
import { api } from '../../../lib/api';
import { adminKeys } from './admin-keys';

/** Sends an invitation e-mail; the answer carries the link too, for when mail is not set up. */
export function inviteUser(body: CreateInvitationBody): Promise<InvitationCreated> {
  return api.post('/api/organizations/invitations', InvitationCreated, body, {
    errorFallback: 'Failed to send the invitation',
  });
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
