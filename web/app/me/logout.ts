import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { AUTH_TOKEN_STORAGE_KEY } from '../../../common/constants';
import { api, isApiRequestError } from '../../lib/api';

/** Ends the server session and forgets the stored bearer token. Already signed out (401) counts as success. */
export async function logout(): Promise<void> {
  try {
    await api.post('/api/auth/logout', z.unknown(), undefined, { errorFallback: 'Logout failed' });
  } catch (error) {
    if (!(isApiRequestError(error) && error.status === 401)) throw error;
  }
  try {
    localStorage.removeItem(AUTH_TOKEN_STORAGE_KEY);
  } catch {
    // Storage can be disabled (private mode, policy); there is then no token to forget.
  }
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
