import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RevokeOtherSessionsResponse } from '../../../../common/schemas/auth';
import { api } from '../../../lib/api';
import { invalidateSessions } from './get-sessions';

export function revokeOtherSessions(): Promise<RevokeOtherSessionsResponse> {
  return api.post('/api/auth/sessions/revoke-others', RevokeOtherSessionsResponse, undefined, {
    errorFallback: 'Failed to sign out of other sessions',
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeOtherSessions, onSuccess: () => invalidateSessions(queryClient) });
}
