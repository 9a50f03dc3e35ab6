import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { SessionView } from '../../../../common/schemas/auth';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

const SessionList = z.array(SessionView);

export function getSessions(): Promise<SessionView[]> {
  return api.get('/api/auth/sessions', SessionList);
}

export const sessionsQueryOptions = queryOptions({
  queryKey: queryKeys.sessions,
  queryFn: getSessions,
  // Unlike most data, sessions change elsewhere (a sign-in on another device): opening the list refreshes it.
  staleTime: 0,
  meta: { scope: 'organization' },
});

/** The signed-in user's browsers and devices, this one included. */
export function useSessions() {
  return useQuery(sessionsQueryOptions);
}

export function invalidateSessions(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.sessions });
}
