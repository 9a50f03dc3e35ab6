import { useState } from 'react';
import { LoaderCircle, Pencil, Plus, Trash2 } from 'lucide-react';
import type { WorkspaceView } from '../../../../common/schemas/workspaces';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../../components/ui/alert-dialog';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { toast, toastError } from '../../../components/ui/use-toast';
import { formatDate } from '../../../lib/format';
import { useWorkspace } from '../../../app/workspace/use-workspace';
import { useDeleteWorkspace } from '../api/delete-workspace';
import { WorkspaceDialog, type WorkspaceDialogState } from './workspace-dialog';

/** The organization's workspaces: create, rename and delete (the last one cannot be deleted). */
export function WorkspaceSettings() {
  const { workspaces, currentWorkspace } = useWorkspace();
  const deleteMutation = useDeleteWorkspace();
  const [dialog, setDialog] = useState<WorkspaceDialogState>(null);
  const [deleting, setDeleting] = useState<WorkspaceView | null>(null);
  const onlyOne = workspaces.length <= 1;

  const remove = (workspace: WorkspaceView) => {
    setDeleting(null);
    deleteMutation.mutate(workspace, {
      onSuccess: () =>
        toast({
          title: 'Workspace deleted',
          description: `${workspace.name} and its content were deleted.`,
          variant: 'success',
        }),
      onError: (error) => toastError(error, 'Failed to delete workspace'),
    });
  };

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Workspaces ({workspaces.length})</CardTitle>
          <CardDescription>
            Each workspace has its own library, documents, chat history and assessments.
          </CardDescription>
        </div>
        <Button onClick={() => setDialog({ mode: 'create' })}>
          <Plus aria-hidden />
          New Workspace
        </Button>
      </CardHeader>
      <CardContent>
        <ul className="divide-y rounded-lg border" aria-label="Workspaces">
          {workspaces.map((workspace) => {
            const busy = deleteMutation.isPending && deleteMutation.variables.id === workspace.id;
            return (
              <li key={workspace.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
                <div className="min-w-0 flex-1">
                  <p className="flex items-center gap-2 text-sm font-medium">
                    <span className="truncate">{workspace.name}</span>
                    {workspace.id === currentWorkspace?.id && <Badge variant="info">Current</Badge>}
                  </p>
                  <p className="truncate text-xs text-muted-foreground">
                    {workspace.description ? `${workspace.description} · ` : ''}Created{' '}
                    {formatDate(workspace.createdAt)}
                  </p>
                </div>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setDialog({ mode: 'rename', workspace })}
                  aria-label={`Rename ${workspace.name}`}
                >
                  <Pencil aria-hidden />
                  Rename
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-destructive hover:bg-red-50 hover:text-destructive"
                  onClick={() => setDeleting(workspace)}
                  disabled={onlyOne || busy}
                  title={onlyOne ? 'An organization must keep at least one workspace.' : undefined}
                  aria-label={`Delete ${workspace.name}`}
                >
                  {busy ? <LoaderCircle className="animate-spin" aria-hidden /> : <Trash2 aria-hidden />}
                  Delete
                </Button>
              </li>
            );
          })}
        </ul>
      </CardContent>

      <WorkspaceDialog state={dialog} onClose={() => setDialog(null)} />
      <AlertDialog open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete {deleting?.name}?</AlertDialogTitle>
            <AlertDialogDescription>
              Everything in this workspace is deleted with it: library answers, documents, chat history and assessments.
              This action cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={() => deleting && remove(deleting)}>Delete Workspace</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
