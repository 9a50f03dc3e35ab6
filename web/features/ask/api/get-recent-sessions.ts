import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { SessionView } from '../../../../common/schemas/qa';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** How many of the caller's latest chats Ask offers to reopen. */
export const RECENT_SESSION_COUNT = 5;

const SessionList = z.array(SessionView);

/** The caller's latest chats, newest first. */
export function getRecentSessions(signal?: AbortSignal): Promise<SessionView[]> {
  return api.get(`/api/qa/sessions?limit=${String(RECENT_SESSION_COUNT)}`, SessionList, { signal });
}

export const recentSessionsQueryOptions = queryOptions({
  queryKey: queryKeys.qa.recentSessions,
  queryFn: ({ signal }) => getRecentSessions(signal),
});

export function useRecentSessions({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...recentSessionsQueryOptions, enabled });
}
