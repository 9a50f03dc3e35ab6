import type { QueryClient } from '@tanstack/react-query';
import { workspacesQueryOptions } from '../../../app/workspace/get-workspaces';

/** After a workspace is created, renamed or deleted, the picker's list (and the current choice) must follow. */
export function invalidateWorkspaces(queryClient: QueryClient, organizationId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: workspacesQueryOptions(organizationId).queryKey });
}
