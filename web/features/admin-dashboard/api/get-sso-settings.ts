import { queryOptions, useQuery } from '@tanstack/react-query';
import { SsoSettingsView } from '../../../../common/schemas/sso';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** The stored OIDC settings; the client secret itself never comes back, only whether one is stored. */
export function getSsoSettings(): Promise<SsoSettingsView> {
  return api.get('/api/admin/sso', SsoSettingsView);
}

export const ssoSettingsQueryOptions = queryOptions({
  queryKey: queryKeys.admin.sso,
  queryFn: getSsoSettings,
  meta: { scope: 'organization' },
});

export function useSsoSettings() {
  return useQuery(ssoSettingsQueryOptions);
}
