import { useMutation } from '@tanstack/react-query';
import { AuthResponse, type RegisterBody } from '../../../../common/schemas/auth';
import { api } from '../../../lib/api';

export function register(body: RegisterBody): Promise<AuthResponse> {
  return api.post('/api/auth/register', AuthResponse, body, { errorFallback: 'Registration failed' });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
