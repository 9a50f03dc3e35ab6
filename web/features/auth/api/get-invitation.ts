import { queryOptions, useQuery } from '@tanstack/react-query';
import { InvitationPreview } from '../../../../common/schemas/auth';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

export function getInvitation(token: string): Promise<InvitationPreview> {
  return api.get(`/api/auth/invitations/${encodeURIComponent(token)}`, InvitationPreview, {
    errorFallback: 'This invitation is invalid or has expired.',
  });
}

export function invitationQueryOptions(token: string) {
  return queryOptions({
    queryKey: queryKeys.invitation(token),
    queryFn: () => getInvitation(token),
    meta: { scope: 'organization' },
  });
}

/** The invitation behind `/login?invite=TOKEN`; idle when there is no token. */
export function useInvitation(token: string | null) {
  return useQuery({ ...invitationQueryOptions(token ?? ''), enabled: Boolean(token) });
}
