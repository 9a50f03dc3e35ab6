import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { WorkspaceView } from '../../../common/schemas/workspaces';
import { ApiRequestError, api, isApiRequestError } from '../../lib/api';
import { queryKeys } from '../query-keys';

const WorkspaceList = z.array(WorkspaceView);

export async function getWorkspaces(organizationId: string): Promise<WorkspaceView[]> {
  try {
    return await api.get(`/api/workspaces?${new URLSearchParams({ organizationId }).toString()}`, WorkspaceList);
  } catch (error) {
    // PRODUCT §11 gives this call a fixed message whatever the server said.
    if (isApiRequestError(error)) throw new ApiRequestError(error.status, 'Failed to fetch workspaces', error.code);
    throw error;
  }
}

export function workspacesQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: queryKeys.workspaces(organizationId),
    queryFn: () => getWorkspaces(organizationId),
    meta: { scope: 'organization' },
  });
}

/** PRODUCT §2: the list loads only once the organization id is known. */
export function useWorkspaces(organizationId: string | undefined) {
  return useQuery({ ...workspacesQueryOptions(organizationId ?? ''), enabled: Boolean(organizationId) });
}

/** After a workspace is created, renamed or deleted, the picker's list (and the current choice) must follow. */
export function invalidateWorkspaces(queryClient: QueryClient, organizationId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.workspaces(organizationId) });
}
