import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreatedApiToken, type CreateApiTokenBody } from '../../../../../common/schemas/api-tokens';
import { api } from '../../../../lib/api';
import { invalidateApiTokens } from './get-api-tokens';

/** The response is the only time the whole token is sent: the caller must show it before dropping it. */
export function createApiToken(body: CreateApiTokenBody): Promise<CreatedApiToken> {
  return api.post('/api/admin/api-tokens', CreatedApiToken, body, { errorFallback: 'Failed to create API token' });
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiToken,
    onSuccess: () => invalidateApiTokens(queryClient),
  });
}
