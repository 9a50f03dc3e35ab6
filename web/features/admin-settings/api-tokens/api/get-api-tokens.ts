import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiTokenView } from '../../../../../common/schemas/api-tokens';
import { api } from '../../../../lib/api';
import { queryKeys } from '../../../../app/query-keys';

const ApiTokenList = z.array(ApiTokenView);

export function getApiTokens(): Promise<ApiTokenView[]> {
  return api.get('/api/admin/api-tokens', ApiTokenList, { errorFallback: 'Could not load the API tokens.' });
}

export const apiTokensQueryOptions = queryOptions({
  queryKey: queryKeys.apiTokens,
  queryFn: getApiTokens,
  // Tokens belong to the organization, not to the selected workspace: a workspace switch keeps the list.
  meta: { scope: 'organization' },
});

/** The organization's API tokens, newest first, revoked and expired ones included. */
export function useApiTokens() {
  return useQuery(apiTokensQueryOptions);
}

export function invalidateApiTokens(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.apiTokens });
}
