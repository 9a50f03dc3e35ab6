import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { InvitationView } from '../../../../common/schemas/organizations';
import { api } from '../../../lib/api';

const InvitationList = z.array(InvitationView);

export function getInvitations(): Promise<InvitationView[]> {
  return api.get('/api/organizations/invitations', InvitationList);
}

export const invitationsQueryOptions = queryOptions({
  queryKey: ['organization-invitations'],
  queryFn: getInvitations,
  meta: { scope: 'organization' },
});

/** The organization's invitations, newest first; fetched only for those who may manage them. */
export function useInvitations({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...invitationsQueryOptions, enabled });
}

export function invalidateInvitations(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: invitationsQueryOptions.queryKey });
}
