import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SsoSettingsView } from '../../../../common/schemas/sso';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** Asks the server to look up the domain's TXT record; the reply is the settings with the domain verified. */
export function verifySsoDomain(domain: string): Promise<SsoSettingsView> {
  return api.post(`/api/admin/sso/domains/${encodeURIComponent(domain)}/verify`, SsoSettingsView, undefined, {
    errorFallback: `Could not verify ${domain}`,
  });
}

export function useVerifySsoDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifySsoDomain,
    onSuccess: async (settings) => {
      queryClient.setQueryData(queryKeys.admin.sso, settings);
      await queryClient.invalidateQueries({ queryKey: queryKeys.admin.auditLogs });
    },
  });
}
