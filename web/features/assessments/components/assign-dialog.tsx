import { useId, useMemo, useState } from 'react';
import { UserPlus } from 'lucide-react';
import type { AssessmentQuestionView, BulkReviewBody } from '../../../../common/schemas/assessments';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { toast, toastError } from '../../../components/ui/use-toast';
import { formatLabel, formatNumber, fullName } from '../../../lib/format';
import { useOrganizationUsers } from '../../../app/people/get-organization-users';
import { useBulkReview } from '../api/bulk-review';
import { assigneeCandidates, sectionsOf } from '../review-rules';

const NOBODY = 'nobody';

/** What is being assigned: picked questions, or one section the user chooses in the dialog. */
export type AssignTarget =
  | {
      kind: 'questions';
      questions: readonly Pick<AssessmentQuestionView, 'id' | 'orderIndex' | 'assignee' | 'dueOn'>[];
    }
  | { kind: 'section' };

interface AssignDialogProps {
  batchId: string;
  /** The assessment's questions, for the sections it offers. */
  questions: readonly Pick<AssessmentQuestionView, 'section'>[];
  /** Null: closed. */
  target: AssignTarget | null;
  onClose: () => void;
  /** After a successful assignment (the page clears its selection). */
  onAssigned?: () => void;
}

/** Gives questions (picked ones, or a whole section) a person who answers them and an optional due date. */
export function AssignDialog({ target, onClose, ...props }: AssignDialogProps) {
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>{target && <AssignForm target={target} onClose={onClose} {...props} />}</DialogContent>
    </Dialog>
  );
}

function titleOf(target: AssignTarget): string {
  if (target.kind === 'section') return 'Assign a section';
  const [only] = target.questions;
  if (target.questions.length === 1 && only) return `Assign question #${String(only.orderIndex)}`;
  return `Assign ${formatNumber(target.questions.length)} questions`;
}

/**
 * The due date the assignment sets: the one typed; none when unassigning; for one question, none when the field was
 * cleared; for several, left as each one has it when the field was left empty (not wiped).
 */
function dueOnToSend(assigneeId: string | null, typed: string, only: unknown): string | null | undefined {
  if (!assigneeId) return null;
  if (typed) return typed;
  return only ? null : undefined;
}

function AssignForm({
  batchId,
  questions,
  target,
  onClose,
  onAssigned,
}: Omit<AssignDialogProps, 'target'> & { target: AssignTarget }) {
  const users = useOrganizationUsers();
  const candidates = useMemo(() => assigneeCandidates(users.data ?? []), [users.data]);
  const sections = useMemo(() => sectionsOf(questions), [questions]);
  const only = target.kind === 'questions' && target.questions.length === 1 ? target.questions[0] : undefined;
  const [assignee, setAssignee] = useState(only?.assignee?.id ?? '');
  const [dueOn, setDueOn] = useState(only?.dueOn ?? '');
  const [sectionIndex, setSectionIndex] = useState(sections.length > 0 ? '0' : '');
  const mutation = useBulkReview();
  const ids = { section: useId(), person: useId(), due: useId() };

  const section = sections[Number(sectionIndex)];
  const ready = assignee !== '' && (target.kind === 'questions' || section !== undefined);

  const submit = () => {
    if (!ready) return;
    const selection: Extract<BulkReviewBody, { action: 'assign' }>['selection'] =
      target.kind === 'questions'
        ? { questionIds: target.questions.map((q) => q.id) }
        : { section: section?.section ?? null };
    const assigneeId = assignee === NOBODY ? null : assignee;
    mutation.mutate(
      { batchId, body: { action: 'assign', assigneeId, dueOn: dueOnToSend(assigneeId, dueOn, only), selection } },
      {
        onSuccess: ({ updated }) => {
          const person = candidates.find((c) => c.id === assigneeId)?.username;
          toast({
            title: person ? `Assigned to ${person}` : 'Assignment removed',
            description: `${formatNumber(updated)} ${updated === 1 ? 'question' : 'questions'} updated.`,
            variant: 'success',
          });
          onAssigned?.();
          onClose();
        },
        onError: (error) => toastError(error, 'Failed to assign the questions'),
      },
    );
  };

  return (
    <form
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <DialogHeader>
        <DialogTitle>{titleOf(target)}</DialogTitle>
        <DialogDescription>The person answers the questions and submits them for review.</DialogDescription>
      </DialogHeader>

      {target.kind === 'section' && (
        <div className="grid gap-1.5">
          <Label htmlFor={ids.section}>Section</Label>
          <Select value={sectionIndex} onValueChange={setSectionIndex}>
            <SelectTrigger id={ids.section}>
              <SelectValue placeholder="Choose a section" />
            </SelectTrigger>
            <SelectContent>
              {sections.map((s, index) => (
                <SelectItem key={s.label} value={String(index)}>
                  {s.label} ({formatNumber(s.count)})
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      )}

      <div className="grid gap-1.5">
        <Label htmlFor={ids.person}>Person</Label>
        <Select value={assignee} onValueChange={setAssignee} disabled={users.isPending}>
          <SelectTrigger id={ids.person}>
            <SelectValue placeholder={users.isPending ? 'Loading people...' : 'Choose a person'} />
          </SelectTrigger>
          <SelectContent>
            {candidates.map((user) => {
              const name = fullName(user);
              return (
                <SelectItem key={user.id} value={user.id}>
                  {user.username}
                  {name ? ` (${name})` : ''} · {formatLabel(user.role)}
                </SelectItem>
              );
            })}
            <SelectItem value={NOBODY}>Nobody (remove the assignment)</SelectItem>
          </SelectContent>
        </Select>
        {users.isError && <p className="text-xs text-destructive">Could not load the people of the organization.</p>}
        <p className="text-xs text-muted-foreground">Viewers cannot answer, so they are not listed.</p>
      </div>

      <div className="grid gap-1.5">
        <Label htmlFor={ids.due}>Due date (optional)</Label>
        <Input
          id={ids.due}
          type="date"
          value={dueOn}
          onChange={(event) => setDueOn(event.target.value)}
          disabled={assignee === NOBODY}
        />
      </div>

      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={!ready || mutation.isPending}>
          {mutation.isPending ? (
            <Spinner className="size-4 text-primary-foreground" label="Assigning" />
          ) : (
            <UserPlus aria-hidden />
          )}
          Assign
        </Button>
      </DialogFooter>
    </form>
  );
}
