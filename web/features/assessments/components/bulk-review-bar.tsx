import { useId, useMemo, useState } from 'react';
import { BadgeCheck, CheckCheck, CircleSlash, Layers, UserPlus, X } from 'lucide-react';
import { BULK_ACCEPT_DEFAULT_CONFIDENCE } from '../../../../common/review-states';
import type { AssessmentQuestionView, BulkReviewBody } from '../../../../common/schemas/assessments';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover';
import { Spinner } from '../../../components/ui/spinner';
import { toast, toastError } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/format';
import { useBulkReview } from '../api/bulk-review';
import { AcceptEvidence } from './accept-evidence';
import { acceptableAnswers, answersSeen } from '../review-rules';

interface BulkReviewBarProps {
  batchId: string;
  questions: readonly AssessmentQuestionView[];
  /** The questions the filters show, which "select all" picks. */
  visibleIds: readonly string[];
  selected: ReadonlySet<string>;
  onSelect: (ids: readonly string[]) => void;
  onClear: () => void;
  canApprove: boolean;
  canAssign: boolean;
  /** Opens the assign dialog for the selection, or for a section. */
  onAssignSelected: () => void;
  onAssignSection: () => void;
}

type SelectionAction = Extract<BulkReviewBody, { action: 'approve' | 'not_applicable' }>['action'];

const DONE: Record<SelectionAction, (n: number) => string> = {
  approve: (n) => `${formatNumber(n)} ${n === 1 ? 'answer' : 'answers'} approved`,
  not_applicable: (n) => `${formatNumber(n)} ${n === 1 ? 'question' : 'questions'} marked not applicable`,
};

/**
 * A manager's bulk review: approve every machine answer at or above a confidence, assign a whole section, and on the
 * questions picked with the cards' checkboxes assign, approve or mark not applicable.
 */
export function BulkReviewBar({
  batchId,
  questions,
  visibleIds,
  selected,
  onSelect,
  onClear,
  canApprove,
  canAssign,
  onAssignSelected,
  onAssignSection,
}: BulkReviewBarProps) {
  const mutation = useBulkReview();
  const [running, setRunning] = useState<SelectionAction | null>(null);
  const count = selected.size;
  const allShown = visibleIds.length > 0 && visibleIds.every((id) => selected.has(id));
  const someShown = visibleIds.some((id) => selected.has(id));

  const onSelection = (action: SelectionAction) => {
    setRunning(action);
    const selection = { questionIds: [...selected] };
    mutation.mutate(
      {
        batchId,
        // Approve says which answers the reviewer saw, so one rewritten since they loaded the page is not approved.
        body:
          action === 'approve'
            ? { action, selection, answeredAt: answersSeen(questions, selected) }
            : { action, selection },
      },
      {
        onSuccess: ({ updated, skippedChanged = 0 }) => {
          toast({ title: DONE[action](updated), variant: 'success' });
          if (skippedChanged > 0) {
            toast({
              title: `${formatNumber(skippedChanged)} ${skippedChanged === 1 ? 'answer' : 'answers'} changed since you opened the page`,
              description: `${skippedChanged === 1 ? 'It was' : 'They were'} not approved. Read the new ${skippedChanged === 1 ? 'answer' : 'answers'}, then approve again.`,
            });
          }
          const unchanged = count - updated - skippedChanged;
          if (unchanged > 0) {
            toast({
              title: `${formatNumber(unchanged)} left as they were`,
              description:
                action === 'approve'
                  ? 'Only answered questions that are not approved yet can be approved.'
                  : 'They were already marked not applicable.',
            });
          }
          onClear();
        },
        onError: (error) => toastError(error, 'Failed to update the questions'),
        onSettled: () => setRunning(null),
      },
    );
  };

  return (
    <div
      role="toolbar"
      aria-label="Bulk review"
      className={cn(
        'flex flex-wrap items-center gap-2 rounded-lg border bg-background/95 px-3 py-2 shadow-sm backdrop-blur',
        // Working on a selection, its actions stay in reach while the list scrolls.
        count > 0 && 'sticky top-0 z-10',
      )}
    >
      <label className="flex items-center gap-2 text-sm">
        <Checkbox
          checked={allShown ? true : someShown ? 'indeterminate' : false}
          onCheckedChange={(checked) => (checked === true ? onSelect(visibleIds) : onClear())}
          aria-label="Select all shown questions"
          disabled={visibleIds.length === 0}
        />
        <span className="text-muted-foreground" aria-live="polite">
          {count > 0 ? `${formatNumber(count)} selected` : 'Select'}
        </span>
      </label>
      <span className="mx-1 h-5 w-px bg-border" aria-hidden />
      {count > 0 ? (
        <>
          {canAssign && (
            <Button variant="outline" size="sm" onClick={onAssignSelected} disabled={mutation.isPending}>
              <UserPlus aria-hidden />
              Assign
            </Button>
          )}
          {canApprove && (
            <>
              <Button variant="outline" size="sm" onClick={() => onSelection('approve')} disabled={mutation.isPending}>
                {running === 'approve' ? <Spinner className="size-4" label="Approving" /> : <BadgeCheck aria-hidden />}
                Approve
              </Button>
              <Button
                variant="outline"
                size="sm"
                onClick={() => onSelection('not_applicable')}
                disabled={mutation.isPending}
              >
                {running === 'not_applicable' ? (
                  <Spinner className="size-4" label="Marking not applicable" />
                ) : (
                  <CircleSlash aria-hidden />
                )}
                Mark not applicable
              </Button>
            </>
          )}
          <Button variant="ghost" size="sm" onClick={onClear}>
            <X aria-hidden />
            Clear selection
          </Button>
        </>
      ) : (
        <>
          {canApprove && <AcceptConfident batchId={batchId} questions={questions} />}
          {canAssign && (
            <Button variant="outline" size="sm" onClick={onAssignSection}>
              <Layers aria-hidden />
              Assign section
            </Button>
          )}
        </>
      )}
    </div>
  );
}

/**
 * "Accept all ≥ N%": says how many machine answers qualify, and approves them only once confirmed. To those who may
 * read the accuracy figures it also offers the threshold the workspace's own reviews support.
 */
function AcceptConfident({ batchId, questions }: { batchId: string; questions: readonly AssessmentQuestionView[] }) {
  const [open, setOpen] = useState(false);
  const [threshold, setThreshold] = useState(String(BULK_ACCEPT_DEFAULT_CONFIDENCE));
  const mutation = useBulkReview();
  const inputId = useId();
  const parsed = Number.parseInt(threshold, 10);
  const valid = Number.isInteger(parsed) && parsed >= 0 && parsed <= 100;
  const minConfidence = valid ? parsed : BULK_ACCEPT_DEFAULT_CONFIDENCE;
  const qualifying = useMemo(() => acceptableAnswers(questions, minConfidence).length, [questions, minConfidence]);

  const accept = () =>
    mutation.mutate(
      { batchId, body: { action: 'accept', minConfidence } },
      {
        onSuccess: ({ updated }) => {
          toast({
            title: `${formatNumber(updated)} ${updated === 1 ? 'answer' : 'answers'} approved`,
            description: `Every machine answer at or above ${String(minConfidence)}% confidence.`,
            variant: 'success',
          });
          setOpen(false);
        },
        onError: (error) => toastError(error, 'Failed to accept the answers'),
      },
    );

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm">
          <CheckCheck aria-hidden />
          Accept all ≥ {String(minConfidence)}%
        </Button>
      </PopoverTrigger>
      <PopoverContent className="grid w-80 gap-3 p-3">
        <form
          className="grid gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (valid && qualifying > 0) accept();
          }}
        >
          <div className="grid gap-1.5">
            <Label htmlFor={inputId}>Minimum confidence (%)</Label>
            <Input
              id={inputId}
              type="number"
              inputMode="numeric"
              min={0}
              max={100}
              step={1}
              value={threshold}
              onChange={(event) => setThreshold(event.target.value)}
              aria-invalid={valid ? undefined : true}
            />
          </div>
          <AcceptEvidence open={open} current={valid ? parsed : null} onUse={(c) => setThreshold(String(c))} />
          <p className="text-sm" aria-live="polite">
            {valid
              ? qualifying === 0
                ? `No unreviewed machine answer is at or above ${String(minConfidence)}%.`
                : `${formatNumber(qualifying)} unreviewed machine ${qualifying === 1 ? 'answer is' : 'answers are'} at or above ${String(minConfidence)}%. They will be approved.`
              : 'Enter a whole number from 0 to 100.'}
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="ghost" size="sm" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" size="sm" disabled={!valid || qualifying === 0 || mutation.isPending}>
              {mutation.isPending ? (
                <Spinner className="size-4 text-primary-foreground" label="Approving" />
              ) : (
                <BadgeCheck aria-hidden />
              )}
              Approve {formatNumber(qualifying)} {qualifying === 1 ? 'answer' : 'answers'}
            </Button>
          </div>
        </form>
      </PopoverContent>
    </Popover>
  );
}
