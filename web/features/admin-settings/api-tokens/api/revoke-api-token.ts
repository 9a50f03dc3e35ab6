import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import type { ApiTokenView } from '../../../../../common/schemas/api-tokens';
import { SuccessResponse } from '../../../../../common/schemas/errors';
import { api } from '../../../../lib/api';
import { invalidateApiTokens } from './get-api-tokens';

// Named so the token table can tell which rows are being revoked without holding the mutation itself.
const revokeApiTokenKey = ['revoke-api-token'] as const;

export async function revokeApiToken(token: ApiTokenView): Promise<void> {
  await api.del(`/api/admin/api-tokens/${encodeURIComponent(token.id)}`, SuccessResponse, {
    errorFallback: 'Failed to revoke API token',
  });
}

/** Calls with the token are refused from the moment this succeeds; the token stays listed as Revoked. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: revokeApiTokenKey,
    mutationFn: revokeApiToken,
    onSuccess: () => invalidateApiTokens(queryClient),
  });
}

/** The ids of the tokens whose revocation is under way, for their rows to show it. */
export function useApiTokensBeingRevoked(): string[] {
  return useMutationState({
    filters: { mutationKey: revokeApiTokenKey, status: 'pending' },
    select: (mutation) => mutation.state.variables,
  })
    .map((token) => (typeof token === 'object' && token !== null && 'id' in token ? token.id : null))
    .filter((id): id is string => typeof id === 'string');
}
