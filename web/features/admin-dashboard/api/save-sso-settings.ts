import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SsoSettingsView, type UpdateSsoBody } from '../../../../common/schemas/sso';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** An empty client secret keeps the stored one. */
export function saveSsoSettings(body: UpdateSsoBody): Promise<SsoSettingsView> {
  return api.put('/api/admin/sso', SsoSettingsView, body, { errorFallback: 'Failed to save SSO settings' });
}

export function removeSsoSettings(): Promise<SsoSettingsView> {
  return api.del('/api/admin/sso', SsoSettingsView, { errorFallback: 'Failed to remove SSO settings' });
}

function useSsoMutation<T>(mutationFn: (input: T) => Promise<SsoSettingsView>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (settings) => {
      queryClient.setQueryData(queryKeys.admin.sso, settings);
      await queryClient.invalidateQueries({ queryKey: queryKeys.admin.auditLogs });
    },
  });
}

export function useSaveSsoSettings() {
  return useSsoMutation(saveSsoSettings);
}

export function useRemoveSsoSettings() {
  return useSsoMutation(removeSsoSettings);
}
