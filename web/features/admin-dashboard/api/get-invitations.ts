import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { InvitationView } from '../../../../common/schemas/organizations';
import { api } from '../../../lib/api';
import { adminKeys } from './admin-keys';

const InvitationList = z.array(InvitationView);

export function getInvitations(): Promise<InvitationView[]> {
  return api.get('/api/organizations/invitations', InvitationList);
}

export const invitationsQueryOptions = queryOptions({
  queryKey: adminKeys.invitations,
  queryFn: getInvitations,
  meta: { scope: 'organization' },
});

/** Invitations sent and not yet used (accepted ones are members now and appear among the users). */
export function usePendingInvitations() {
  return useQuery({
    ...invitationsQueryOptions,
    refetchOnMount: 'always',
    select: (invitations) => invitations.filter((i) => i.acceptedAt === null),
  });
}
