import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { RejectSuggestionBody, SUGGESTION_REASON_MAX, type SuggestionView } from '../../../../common/schemas/knowledge';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { TextareaField } from '../../../components/ui/textarea-field';
import { toast, toastError } from '../../../components/ui/use-toast';
import { useRejectLibrarySuggestion } from '../api/reject-library-suggestion';

interface RejectSuggestionDialogProps {
  /** The suggestion being rejected; null closes the dialog. */
  suggestion: SuggestionView | null;
  onClose: () => void;
}

/** Rejecting needs a reason: the suggester reads it in the library and in the e-mail Verity sends them. */
export function RejectSuggestionDialog({ suggestion, onClose }: RejectSuggestionDialogProps) {
  return (
    <Dialog open={suggestion !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-lg">
        {suggestion && <RejectForm key={suggestion.id} suggestion={suggestion} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function RejectForm({ suggestion, onClose }: { suggestion: SuggestionView; onClose: () => void }) {
  const reject = useRejectLibrarySuggestion();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(RejectSuggestionBody), defaultValues: { reason: '' } });

  const onSubmit = handleSubmit(({ reason }) => {
    reject.mutate(
      { id: suggestion.id, reason },
      {
        onSuccess: () => {
          toast({ title: 'Suggestion rejected', description: 'The suggester was told why.', variant: 'success' });
          onClose();
        },
        onError: (error) => toastError(error, 'Failed to reject the suggestion'),
      },
    );
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Reject this suggestion?</DialogTitle>
        <DialogDescription className="break-words">&ldquo;{suggestion.question}&rdquo;</DialogDescription>
      </DialogHeader>
      <TextareaField
        label="Reason"
        rows={4}
        maxLength={SUGGESTION_REASON_MAX}
        placeholder="e.g. We only claim this for company laptops; see the existing entry."
        hint={`${suggestion.suggestedBy?.username ?? 'The suggester'} will see this. At most ${SUGGESTION_REASON_MAX} characters.`}
        error={errors.reason?.message}
        {...register('reason')}
      />
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="destructive" disabled={reject.isPending}>
          {reject.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
          Reject
        </Button>
      </DialogFooter>
    </form>
  );
}
