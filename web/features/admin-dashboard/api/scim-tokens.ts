import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { CreatedScimToken, type ScimTokenView } from '../../../../common/schemas/sso';
import { SuccessResponse } from '../../../../common/schemas/errors';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** The response is the only time the whole token is sent: the caller must show it before dropping it. */
export function createScimToken(): Promise<CreatedScimToken> {
  return api.post('/api/admin/scim/tokens', CreatedScimToken, undefined, {
    errorFallback: 'Failed to generate a SCIM token',
  });
}

/** The identity provider's calls with the token are refused from the moment this succeeds. */
export async function revokeScimToken(token: ScimTokenView): Promise<void> {
  await api.del(`/api/admin/scim/tokens/${encodeURIComponent(token.id)}`, SuccessResponse, {
    errorFallback: 'Failed to revoke the SCIM token',
  });
}

async function refresh(queryClient: QueryClient) {
  await queryClient.invalidateQueries({ queryKey: queryKeys.admin.scim });
  await queryClient.invalidateQueries({ queryKey: queryKeys.admin.auditLogs });
}

export function useCreateScimToken() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createScimToken, onSuccess: () => refresh(queryClient) });
}

export function useRevokeScimToken() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeScimToken, onSuccess: () => refresh(queryClient) });
}
