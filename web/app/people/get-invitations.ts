import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { InvitationView } from '../../../common/schemas/organizations';
import { api } from '../../lib/api';
import { queryKeys } from '../query-keys';

const InvitationList = z.array(InvitationView);

export function getInvitations(): Promise<InvitationView[]> {
  return api.get('/api/organizations/invitations', InvitationList);
}

export const invitationsQueryOptions = queryOptions({
  queryKey: queryKeys.invitations,
  queryFn: getInvitations,
  meta: { scope: 'organization' },
});

/**
 * Invitations sent and not yet used, newest first (accepted ones are members now and appear among the users).
 * Fetched again each time a list mounts: invitees accept them from elsewhere at any time.
 */
export function usePendingInvitations() {
  return useQuery({
    ...invitationsQueryOptions,
    refetchOnMount: 'always',
    select: (invitations) => invitations.filter((i) => i.acceptedAt === null),
  });
}

export function invalidateInvitations(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.invitations });
}
