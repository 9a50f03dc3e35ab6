import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  BrandName,
  OrganizationName,
  OrganizationSlug,
  OrganizationView,
  type UpdateOrganizationBody,
} from '../../../../common/schemas/organizations';
import { api } from '../../../lib/api';
import { currentOrganizationQueryOptions } from '../../organizations/api/get-current-organization';
import { adminKeys } from './admin-keys';

/** The Organization section's form: the same rules the server applies to these three fields. */
export const OrganizationFormValues = z.object({
  brandName: BrandName,
  name: OrganizationName,
  slug: OrganizationSlug,
});
export type OrganizationFormValues = z.infer<typeof OrganizationFormValues>;

/** SPEC §7 PUT /api/organizations/current; Verity also takes the slug here. */
export function updateOrganization(body: UpdateOrganizationBody): Promise<OrganizationView> {
  return api.put('/api/organizations/current', OrganizationView, body, {
    errorFallback: 'Failed to update organization',
  });
}

export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    onSuccess: async (organization) => {
      // The sidebar's brand name reads this query: it changes as soon as the save is done.
      queryClient.setQueryData(currentOrganizationQueryOptions.queryKey, organization);
      await queryClient.invalidateQueries({ queryKey: adminKeys.auditLogs });
    },
  });
}
