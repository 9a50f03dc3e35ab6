import { useMutation } from '@tanstack/react-query';
import { AuthResponse, type LoginBody } from '../../../../common/schemas/auth';
import { api } from '../../../lib/api';

export function login(body: LoginBody): Promise<AuthResponse> {
  return api.post('/api/auth/login', AuthResponse, body, { errorFallback: 'Login failed' });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
