import { queryOptions, useQuery } from '@tanstack/react-query';
import { ScimSettingsView } from '../../../../common/schemas/sso';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../app/query-keys';

/** The SCIM base URL to give the identity provider, and the organization's live SCIM tokens (never their secret). */
export function getScimSettings(): Promise<ScimSettingsView> {
  return api.get('/api/admin/scim', ScimSettingsView);
}

export const scimSettingsQueryOptions = queryOptions({
  queryKey: queryKeys.admin.scim,
  queryFn: getScimSettings,
  meta: { scope: 'organization' },
});

export function useScimSettings() {
  return useQuery(scimSettingsQueryOptions);
}
