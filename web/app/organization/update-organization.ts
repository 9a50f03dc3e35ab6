import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OrganizationView, type UpdateOrganizationBody } from '../../../common/schemas/organizations';
import { api } from '../../lib/api';
import { queryKeys } from '../query-keys';

/** PRODUCT §10 PUT /api/organizations/current; Verity also takes the slug here. */
export function updateOrganization(body: UpdateOrganizationBody): Promise<OrganizationView> {
  return api.put('/api/organizations/current', OrganizationView, body, {
    errorFallback: 'Failed to update organization',
  });
}

/**
 * Name, brand name, slug and brand profile all go through this one call. The answer replaces the cached
 * organization, so the sidebar's brand label changes the moment the save succeeds.
 */
export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    onSuccess: (organization) => {
      queryClient.setQueryData(queryKeys.organization, organization);
    },
  });
}
