import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WorkspaceView, type CreateWorkspaceBody } from '../../../../common/schemas/workspaces';
import { api } from '../../../lib/api';
import { invalidateWorkspaces } from '../../../app/workspace/get-workspaces';

export function createWorkspace(body: CreateWorkspaceBody): Promise<WorkspaceView> {
  return api.post('/api/workspaces', WorkspaceView, body, { errorFallback: 'Failed to create workspace' });
}

export function useCreateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWorkspace,
    onSuccess: (workspace) => invalidateWorkspaces(queryClient, workspace.organizationId),
  });
}
