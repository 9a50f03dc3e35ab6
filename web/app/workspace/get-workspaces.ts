import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { WorkspaceView } from '../../../common/schemas/workspaces';
import { ApiRequestError, api, isApiRequestError } from '../../lib/api';

const WorkspaceList = z.array(WorkspaceView);

export async function getWorkspaces(organizationId: string): Promise<WorkspaceView[]> {
  try {
    return await api.get(`/api/workspaces?${new URLSearchParams({ organizationId }).toString()}`, WorkspaceList);
  } catch (error) {
    // SPEC §8 gives this call a fixed message whatever the server said.
    if (isApiRequestError(error)) throw new ApiRequestError(error.status, 'Failed to fetch workspaces', error.code);
    throw error;
  }
}

export function workspacesQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: ['workspaces', organizationId],
    queryFn: () => getWorkspaces(organizationId),
    meta: { scope: 'organization' },
  });
}

/** SPEC §4: the list loads only once the organization id is known. */
export function useWorkspaces(organizationId: string | undefined) {
  return useQuery({ ...workspacesQueryOptions(organizationId ?? ''), enabled: Boolean(organizationId) });
}
