import { useMutation } from '@tanstack/react-query';
import { SsoDiscovery, type SsoDiscoverQuery } from '../../../../common/schemas/sso';
import { api } from '../../../lib/api';

/** Which organization signs in with SSO for this e-mail address or short name, and where its sign-in starts. */
export function discoverSso(query: SsoDiscoverQuery): Promise<SsoDiscovery> {
  const params = new URLSearchParams();
  if (query.email) params.set('email', query.email);
  if (query.organization) params.set('organization', query.organization);
  return api.get(`/api/auth/sso/discover?${params.toString()}`, SsoDiscovery, {
    errorFallback: 'Could not look up SSO sign-in',
  });
}

/** A mutation, not a query: it runs when the person presses Continue, and its answer is used once. */
export function useDiscoverSso() {
  return useMutation({ mutationFn: discoverSso });
}
