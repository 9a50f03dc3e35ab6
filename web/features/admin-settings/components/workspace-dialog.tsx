import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { CreateWorkspaceBody, type WorkspaceView } from '../../../../common/schemas/workspaces';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { TextareaField } from '../../../components/ui/textarea-field';
import { toast, toastError } from '../../../components/ui/use-toast';
import { useCreateWorkspace } from '../api/create-workspace';
import { useUpdateWorkspace } from '../api/update-workspace';

/** Which dialog is open: a new workspace, or renaming an existing one. */
export type WorkspaceDialogState = { mode: 'create' } | { mode: 'rename'; workspace: WorkspaceView } | null;

interface WorkspaceDialogProps {
  state: WorkspaceDialogState;
  onClose: () => void;
}

export function WorkspaceDialog({ state, onClose }: WorkspaceDialogProps) {
  return (
    <Dialog open={state !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {state && (
          <WorkspaceForm
            key={state.mode === 'rename' ? state.workspace.id : 'create'}
            workspace={state.mode === 'rename' ? state.workspace : null}
            onClose={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function WorkspaceForm({ workspace, onClose }: { workspace: WorkspaceView | null; onClose: () => void }) {
  const createMutation = useCreateWorkspace();
  const updateMutation = useUpdateWorkspace();
  const busy = createMutation.isPending || updateMutation.isPending;
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(CreateWorkspaceBody),
    defaultValues: { name: workspace?.name ?? '', description: workspace?.description ?? '' },
  });

  const onError = (error: Error) =>
    toastError(error, workspace ? 'Failed to rename workspace' : 'Failed to create workspace');

  const onSubmit = handleSubmit((values) => {
    const body = { name: values.name, description: values.description || null };
    if (workspace) {
      updateMutation.mutate(
        { id: workspace.id, body },
        {
          onSuccess: (saved) => {
            toast({
              title: 'Workspace updated',
              description: `The workspace is now called ${saved.name}.`,
              variant: 'success',
            });
            onClose();
          },
          onError,
        },
      );
    } else {
      createMutation.mutate(body, {
        onSuccess: (saved) => {
          toast({
            title: 'Workspace created',
            description: `${saved.name} is ready in the workspace picker.`,
            variant: 'success',
          });
          onClose();
        },
        onError,
      });
    }
  });

  return (
    <>
      <DialogHeader>
        <DialogTitle>{workspace ? 'Rename Workspace' : 'New Workspace'}</DialogTitle>
        <DialogDescription>
          {workspace
            ? 'The new name shows in the workspace picker for everyone in your organization.'
            : 'A workspace keeps its own library, documents, chat history and assessments.'}
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
        <TextField label="Workspace Name" error={errors.name?.message} {...register('name')} />
        <TextareaField
          label="Description"
          rows={3}
          placeholder="Optional, e.g. Questionnaires from EMEA customers"
          error={errors.description?.message}
          {...register('description')}
        />
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy && <LoaderCircle className="animate-spin" aria-hidden />}
            {workspace ? 'Save Changes' : 'Create Workspace'}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
