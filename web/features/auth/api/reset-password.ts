import { useMutation } from '@tanstack/react-query';
import { MessageResponse, type ForgotPasswordBody, type ResetPasswordBody } from '../../../../common/schemas/auth';
import { SuccessResponse } from '../../../../common/schemas/errors';
import { api } from '../../../lib/api';

export function requestPasswordReset(body: ForgotPasswordBody) {
  return api.post('/api/auth/forgot-password', MessageResponse, body, { errorFallback: 'Failed to send reset email' });
}

export function resetPassword(body: ResetPasswordBody) {
  return api.post('/api/auth/reset-password', SuccessResponse, body, { errorFallback: 'Failed to change password' });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
