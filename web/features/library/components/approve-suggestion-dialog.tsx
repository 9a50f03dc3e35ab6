import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { LibraryFormValues, type SuggestionView } from '../../../../common/schemas/knowledge';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { toast, toastError } from '../../../components/ui/use-toast';
import { AnswerFormFields } from '../../../components/knowledge/answer-form-fields';
import { useApproveLibrarySuggestion } from '../api/approve-library-suggestion';
import { approvalEdits, suggestionFormValues } from '../suggestions';

interface ApproveSuggestionDialogProps {
  /** The suggestion being edited before approval; null closes the dialog. */
  suggestion: SuggestionView | null;
  onClose: () => void;
}

/** "Edit then approve": the suggestion in the library form; saving approves it with the changes. */
export function ApproveSuggestionDialog({ suggestion, onClose }: ApproveSuggestionDialogProps) {
  return (
    <Dialog open={suggestion !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl">
        {suggestion && <ApproveForm key={suggestion.id} suggestion={suggestion} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function ApproveForm({ suggestion, onClose }: { suggestion: SuggestionView; onClose: () => void }) {
  const approve = useApproveLibrarySuggestion();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(LibraryFormValues), defaultValues: suggestionFormValues(suggestion) });

  const onSubmit = handleSubmit((values) => {
    approve.mutate(
      { id: suggestion.id, edits: approvalEdits(suggestion, values) },
      {
        onSuccess: () => {
          toast({ title: 'Suggestion approved', description: 'It is now in the library.', variant: 'success' });
          onClose();
        },
        onError: (error) => toastError(error, 'Failed to approve the suggestion'),
      },
    );
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Edit then approve</DialogTitle>
        <DialogDescription>
          Change the wording if needed. Approving adds it to the library, or updates the entry that already asks this
          question (its previous version is kept).
        </DialogDescription>
      </DialogHeader>
      <AnswerFormFields
        question={register('question')}
        answer={register('answer')}
        tags={register('tags')}
        errors={{ question: errors.question?.message, answer: errors.answer?.message, tags: errors.tags?.message }}
      />
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={approve.isPending}>
          {approve.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          Approve
        </Button>
      </DialogFooter>
    </form>
  );
}
