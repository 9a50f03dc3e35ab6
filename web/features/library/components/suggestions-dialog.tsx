import { useState } from 'react';
import { Inbox, LoaderCircle } from 'lucide-react';
import type { SuggestionView } from '../../../../common/schemas/knowledge';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { toast, toastError } from '../../../components/ui/use-toast';
import { useApproveLibrarySuggestion } from '../api/approve-library-suggestion';
import { useLibrarySuggestions } from '../api/get-library-suggestions';
import { ApproveSuggestionDialog } from './approve-suggestion-dialog';
import { RejectSuggestionDialog } from './reject-suggestion-dialog';
import { SuggestionCard } from './suggestion-card';

interface SuggestionsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Approvers get the inbox of pending suggestions; everyone else their own suggestions and their fate. */
  canApprove: boolean;
}

/** PRODUCT §5: the approval inbox (managers and admins), or "My suggestions" (contributors). */
export function SuggestionsDialog({ open, onOpenChange, canApprove }: SuggestionsDialogProps) {
  const suggestions = useLibrarySuggestions(canApprove ? 'pending' : undefined, { enabled: open });
  const approve = useApproveLibrarySuggestion();
  const [editing, setEditing] = useState<SuggestionView | null>(null);
  const [rejecting, setRejecting] = useState<SuggestionView | null>(null);
  const approvingId = approve.isPending ? approve.variables.id : null;

  const approveAsSuggested = (s: SuggestionView) => {
    approve.mutate(
      { id: s.id, edits: {} },
      {
        onSuccess: () =>
          toast({ title: 'Suggestion approved', description: 'It is now in the library.', variant: 'success' }),
        onError: (error) => toastError(error, 'Failed to approve the suggestion'),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{canApprove ? 'Approval inbox' : 'My suggestions'}</DialogTitle>
          <DialogDescription>
            {canApprove
              ? 'Answers your team suggested for the library. Approve them as they are, edit them first, or reject them with a reason the suggester will see.'
              : 'Answers you suggested for the library. A manager or admin approves or rejects each one.'}
          </DialogDescription>
        </DialogHeader>

        {suggestions.isPending ? (
          <div className="flex justify-center py-12">
            <Spinner className="size-6" label="Loading suggestions" />
          </div>
        ) : suggestions.isError ? (
          <LoadError
            error={suggestions.error}
            fallback="Could not load the suggestions."
            onRetry={() => void suggestions.refetch()}
          />
        ) : suggestions.data.length === 0 ? (
          <EmptyState
            icon={<Inbox aria-hidden />}
            title={canApprove ? 'Nothing waiting for approval' : 'No suggestions yet'}
            description={
              canApprove
                ? 'When someone who cannot approve saves an answer to the library, it waits here.'
                : 'Save an answer to the library from an assessment and it appears here until it is decided.'
            }
          />
        ) : (
          <ul className="grid max-h-[65vh] gap-3 overflow-y-auto pr-1">
            {suggestions.data.map((s) => (
              <li key={s.id}>
                <SuggestionCard
                  suggestion={s}
                  actions={
                    canApprove &&
                    s.status === 'pending' && (
                      <>
                        <Button size="sm" onClick={() => approveAsSuggested(s)} disabled={approve.isPending}>
                          {approvingId === s.id && <LoaderCircle className="animate-spin" aria-hidden />}
                          Approve
                        </Button>
                        <Button size="sm" variant="outline" onClick={() => setEditing(s)} disabled={approve.isPending}>
                          Edit then approve
                        </Button>
                        <Button size="sm" variant="ghost" onClick={() => setRejecting(s)} disabled={approve.isPending}>
                          Reject
                        </Button>
                      </>
                    )
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
      <ApproveSuggestionDialog suggestion={editing} onClose={() => setEditing(null)} />
      <RejectSuggestionDialog suggestion={rejecting} onClose={() => setRejecting(null)} />
    </Dialog>
  );
}
