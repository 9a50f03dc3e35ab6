import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody } from '../../../../common/schemas/auth';
import { SuccessResponse } from '../../../../common/schemas/errors';
import { api } from '../../../lib/api';
import { invalidateSessions } from './get-sessions';

export function changePassword(body: ChangePasswordBody): Promise<SuccessResponse> {
  return api.put('/api/auth/change-password', SuccessResponse, body, { errorFallback: 'Failed to change password' });
}

/** The server ends every other session of the user on a password change, so the session list is refreshed. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changePassword, onSuccess: () => invalidateSessions(queryClient) });
}
