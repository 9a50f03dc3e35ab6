import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { SessionView } from '../../../../common/schemas/qa';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

const SessionList = z.array(SessionView);

/** Chat sessions with their question counts, newest first: everyone's for admin-level roles, else the caller's. */
export function getHistorySessions(): Promise<SessionView[]> {
  return api.get('/api/qa/sessions/all', SessionList);
}

export const historySessionsQueryOptions = queryOptions({
  queryKey: queryKeys.qa.historySessions,
  queryFn: getHistorySessions,
});

export function useHistorySessions({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...historySessionsQueryOptions, enabled });
}
