import { useMutation } from '@tanstack/react-query';
import { MessageResponse, type ForgotPasswordBody } from '../../../../common/schemas/auth';
import { api } from '../../../lib/api';

export function requestPasswordReset(body: ForgotPasswordBody) {
  return api.post('/api/auth/forgot-password', MessageResponse, body, { errorFallback: 'Failed to send reset email' });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
