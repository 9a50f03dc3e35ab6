import { CircleCheckBig, Copy, LoaderCircle, TriangleExclamationPoint } from 'lucide-react';
import type { CanonicalAnswerView, LibraryIssue } from '../../../../common/schemas/knowledge';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { toast, toastError } from '../../../components/ui/use-toast';
import { formatNumber } from '../../../lib/format';
import { useLibraryIssues } from '../api/get-library-issues';
import { useUpdateCanonicalAnswer } from '../api/update-canonical-answer';
import { AnswerMeta } from './answer-meta';
import { StatusBadge } from './status-badge';

interface LibraryHealthDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Resolving an issue archives an entry, which needs knowledge:approve. */
  canResolve: boolean;
}

function issueKey(issue: LibraryIssue): string {
  return `${issue.kind}:${issue.entries[0].id}:${issue.entries[1].id}`;
}

/** Duplicates and conflicts side by side; "Keep this one" archives the other entry of the pair. */
export function LibraryHealthDialog({ open, onOpenChange, canResolve }: LibraryHealthDialogProps) {
  const issues = useLibraryIssues({ enabled: open });
  const update = useUpdateCanonicalAnswer();

  const archive = (other: CanonicalAnswerView) => {
    update.mutate(
      { id: other.id, body: { status: 'archived' } },
      {
        onSuccess: () =>
          toast({
            title: 'Issue resolved',
            description: 'Kept one answer and archived the other.',
            variant: 'success',
          }),
        onError: (error) => toastError(error, 'Failed to update answer'),
      },
    );
  };
  const archivingId = update.isPending ? update.variables.id : null;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-5xl">
        <DialogHeader>
          <DialogTitle>Library health</DialogTitle>
          <DialogDescription>
            Entries that ask the same question twice, or answer it differently. Keep the better one; the other is
            archived, so it stays on record but no longer answers questions.
          </DialogDescription>
        </DialogHeader>

        {issues.isPending ? (
          <div className="flex justify-center py-12">
            <Spinner className="size-6" label="Checking the library" />
          </div>
        ) : issues.isError ? (
          <LoadError
            error={issues.error}
            fallback="Could not check the library."
            onRetry={() => void issues.refetch()}
          />
        ) : issues.data.length === 0 ? (
          <EmptyState
            icon={<CircleCheckBig aria-hidden />}
            title="No duplicates or conflicts found"
            description="Every question in the library is asked once, and no two answers disagree."
          />
        ) : (
          <div className="grid gap-4">
            <p className="text-sm text-muted-foreground">
              {formatNumber(issues.data.length)} {issues.data.length === 1 ? 'issue needs' : 'issues need'} a decision.
              {!canResolve && ' Only managers and admins can resolve them.'}
            </p>
            <ul className="grid gap-4">
              {issues.data.map((issue) => (
                <li key={issueKey(issue)} className="rounded-xl border bg-surface p-4">
                  <div className="flex flex-wrap items-center gap-2">
                    {issue.kind === 'conflict' ? (
                      <Badge variant="destructive">
                        <TriangleExclamationPoint aria-hidden />
                        Conflict
                      </Badge>
                    ) : (
                      <Badge variant="warning">
                        <Copy aria-hidden />
                        Duplicate
                      </Badge>
                    )}
                    <span className="text-xs font-medium text-muted-foreground">{issue.similarity}% similar</span>
                    <span className="text-sm">{issue.reason}</span>
                  </div>
                  <div className="mt-3 grid gap-3 md:grid-cols-2">
                    {issue.entries.map((entry, index) => {
                      const other = issue.entries[index === 0 ? 1 : 0];
                      return (
                        <IssueEntry
                          key={entry.id}
                          entry={entry}
                          canResolve={canResolve}
                          disabled={update.isPending}
                          archiving={archivingId === other.id}
                          onKeep={() => archive(other)}
                        />
                      );
                    })}
                  </div>
                </li>
              ))}
            </ul>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

interface IssueEntryProps {
  entry: CanonicalAnswerView;
  canResolve: boolean;
  disabled: boolean;
  /** The other entry of the pair is being archived because of this one. */
  archiving: boolean;
  onKeep: () => void;
}

function IssueEntry({ entry, canResolve, disabled, archiving, onKeep }: IssueEntryProps) {
  return (
    <article className="flex flex-col gap-2 rounded-lg border bg-background p-3">
      <div className="flex items-start justify-between gap-2">
        <h4 className="text-sm leading-snug font-semibold break-words">{entry.question}</h4>
        <StatusBadge status={entry.status} />
      </div>
      <p className="max-h-40 overflow-y-auto text-sm break-words whitespace-pre-line text-slate-600">{entry.answer}</p>
      {entry.tags.length > 0 && <p className="text-xs text-muted-foreground">Tags: {entry.tags.join(', ')}</p>}
      <AnswerMeta answer={entry} />
      {canResolve && (
        <Button variant="outline" size="sm" className="mt-auto self-start" onClick={onKeep} disabled={disabled}>
          {archiving && <LoaderCircle className="animate-spin" aria-hidden />}
          Keep this one
        </Button>
      )}
    </article>
  );
}
