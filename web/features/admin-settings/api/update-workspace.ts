import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WorkspaceView, type UpdateWorkspaceBody } from '../../../../common/schemas/workspaces';
import { api } from '../../../lib/api';
import { invalidateWorkspaces } from '../../../app/workspace/get-workspaces';

export interface UpdateWorkspaceInput {
  id: string;
  body: UpdateWorkspaceBody;
}

export function updateWorkspace({ id, body }: UpdateWorkspaceInput): Promise<WorkspaceView> {
  return api.put(`/api/workspaces/${encodeURIComponent(id)}`, WorkspaceView, body, {
    errorFallback: 'Failed to rename workspace',
  });
}

export function useUpdateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWorkspace,
    onSuccess: (workspace) => invalidateWorkspaces(queryClient, workspace.organizationId),
  });
}
