import { useMutation, useQueryClient } from '@tanstack/react-query';
import { InvitationCreated, type CreateInvitationBody } from '../../../common/schemas/organizations';
import { api } from '../../lib/api';
import { invalidateInvitations } from './get-invitations';

export function createInvitation(body: CreateInvitationBody): Promise<InvitationCreated> {
  return api.post('/api/organizations/invitations', InvitationCreated, body, {
    errorFallback: 'Failed to send invitation',
  });
}

/** E-mails a single-use sign-up link; the answer carries the link too, for the admin to share another way. */
export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createInvitation, onSuccess: () => invalidateInvitations(queryClient) });
}
