import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SuccessResponse } from '../../../../common/schemas/errors';
import type { WorkspaceView } from '../../../../common/schemas/workspaces';
import { api } from '../../../lib/api';
import { invalidateWorkspaces } from '../../../app/workspace/get-workspaces';

export async function deleteWorkspace(workspace: WorkspaceView): Promise<void> {
  await api.del(`/api/workspaces/${encodeURIComponent(workspace.id)}`, SuccessResponse, {
    errorFallback: 'Failed to delete workspace',
  });
}

/**
 * Deletes a workspace and everything in it. When it was the current one, the refreshed list no longer holds it and
 * the workspace provider moves to another by itself.
 */
export function useDeleteWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWorkspace,
    onSuccess: (_result, workspace) => invalidateWorkspaces(queryClient, workspace.organizationId),
  });
}
