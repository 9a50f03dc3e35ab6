import { queryOptions, useQuery } from '@tanstack/react-query';
import { MeResponse } from '../../../common/schemas/auth';
import { api, isApiRequestError } from '../../lib/api';
import { queryKeys } from '../query-keys';

/**
 * The signed-in user and their allowed actions, or null when signed out. A 401 is an answer ("nobody"), not a
 * failure, so only real failures (server down, 500) reach the error state.
 */
export async function getMe(): Promise<MeResponse | null> {
  try {
    return await api.get('/api/auth/me', MeResponse);
  } catch (error) {
    if (isApiRequestError(error) && error.status === 401) return null;
    throw error;
  }
}

export const meQueryOptions = queryOptions({
  queryKey: queryKeys.me,
  queryFn: getMe,
  meta: { scope: 'organization' },
});

export function useMe() {
  return useQuery(meQueryOptions);
}
