import { z } from 'zod';

export const WorkspaceView = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  createdAt: z.string(),
});
export type WorkspaceView = z.infer<typeof WorkspaceView>;

export const ListWorkspacesQuery = z.object({
  organizationId: z.uuid({ message: 'Invalid organization id' }).optional(),
});

export const CreateWorkspaceBody = z.object({
  name: z.string().trim().min(1, 'Workspace name is required').max(80, 'Workspace name must be at most 80 characters'),
  description: z.string().trim().max(500, 'Description must be at most 500 characters').nullable().optional(),
});
export type CreateWorkspaceBody = z.infer<typeof CreateWorkspaceBody>;

export const UpdateWorkspaceBody = CreateWorkspaceBody.partial();
export type UpdateWorkspaceBody = z.infer<typeof UpdateWorkspaceBody>;
