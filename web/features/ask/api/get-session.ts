import { queryOptions, useQuery } from '@tanstack/react-query';
import { SessionDetailView } from '../../../../common/schemas/qa';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** The URL parameter naming the chat shown on Ask (paths.chat). */
export const SESSION_PARAM = 'session';

/** A chat to reopen: its questions and answers, or its bulk assessment. Someone else's chat is a 404. */
export function getSession(id: string, signal?: AbortSignal): Promise<SessionDetailView> {
  return api.get(`/api/qa/sessions/${encodeURIComponent(id)}`, SessionDetailView, {
    signal,
    errorFallback: 'Could not open the chat.',
  });
}

export const sessionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.qa.session(id),
    queryFn: ({ signal }) => getSession(id, signal),
    // A missing chat stays missing; other failures offer their own Retry.
    retry: false,
    // Opened once, the chat lives in the chat store: reopening it later must fetch it afresh, not show an old copy.
    gcTime: 0,
  });

/** The chat `id`, fetched only while it is to be opened (null: nothing to open). */
export function useSessionToOpen(id: string | null) {
  return useQuery({ ...sessionQueryOptions(id ?? ''), enabled: id !== null });
}
