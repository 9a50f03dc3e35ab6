import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { SuggestionView, type SuggestionStatus } from '../../../../common/schemas/knowledge';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

const SuggestionList = z.array(SuggestionView);

/** Approvers get the workspace's suggestions; everyone else their own. No status: every one, newest first. */
export function getLibrarySuggestions(status: SuggestionStatus | undefined): Promise<SuggestionView[]> {
  const query = status ? `?status=${status}` : '';
  return api.get(`/api/library-suggestions${query}`, SuggestionList);
}

export function librarySuggestionsQueryOptions(status: SuggestionStatus | undefined) {
  return queryOptions({
    queryKey: queryKeys.library.suggestions(status),
    queryFn: () => getLibrarySuggestions(status),
  });
}

export function useLibrarySuggestions(status: SuggestionStatus | undefined, options: { enabled?: boolean } = {}) {
  return useQuery({ ...librarySuggestionsQueryOptions(status), enabled: options.enabled ?? true });
}
