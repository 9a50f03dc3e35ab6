import { useId, useState } from 'react';
import { CalendarClock, Check } from 'lucide-react';
import type { BatchView } from '../../../../common/schemas/assessments';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover';
import { Spinner } from '../../../components/ui/spinner';
import { toast, toastError } from '../../../components/ui/use-toast';
import { useUpdateAssessment } from '../api/update-assessment';
import { DueDate, formatDay } from '../review-badges';

interface DueDateControlProps {
  batch: Pick<BatchView, 'id' | 'dueOn' | 'overdue'>;
  /** May set or clear the date (assessments:assign). */
  canEdit: boolean;
}

/** The day the customer expects the file back, red once it passed unreviewed; managers set it here. */
export function DueDateControl({ batch, canEdit }: DueDateControlProps) {
  const [open, setOpen] = useState(false);
  if (!canEdit) {
    return batch.dueOn ? <DueDate dueOn={batch.dueOn} overdue={batch.overdue} /> : null;
  }
  return (
    <span className="inline-flex items-center gap-1.5">
      {batch.dueOn && <DueDate dueOn={batch.dueOn} overdue={batch.overdue} />}
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button variant="link" size="sm" className="text-xs">
            {batch.dueOn ? (
              'Change due date'
            ) : (
              <>
                <CalendarClock aria-hidden />
                Set due date
              </>
            )}
          </Button>
        </PopoverTrigger>
        <PopoverContent className="w-72 p-3">
          {open && <DueDateForm batch={batch} onDone={() => setOpen(false)} />}
        </PopoverContent>
      </Popover>
    </span>
  );
}

function DueDateForm({ batch, onDone }: { batch: DueDateControlProps['batch']; onDone: () => void }) {
  const mutation = useUpdateAssessment();
  const [value, setValue] = useState(batch.dueOn ?? '');
  const id = useId();
  const save = (dueOn: string | null) =>
    mutation.mutate(
      { batchId: batch.id, dueOn },
      {
        onSuccess: () => {
          toast({
            title: dueOn ? `Due ${formatDay(dueOn)}` : 'Due date removed',
            variant: 'success',
          });
          onDone();
        },
        onError: (error) => toastError(error, 'Failed to set the due date'),
      },
    );
  return (
    <form
      className="grid gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (value) save(value);
      }}
    >
      <div className="grid gap-1.5">
        <Label htmlFor={id}>Assessment due date</Label>
        <Input id={id} type="date" value={value} onChange={(event) => setValue(event.target.value)} required />
      </div>
      <div className="flex items-center justify-between gap-2">
        {batch.dueOn ? (
          <Button variant="ghost" size="sm" onClick={() => save(null)} disabled={mutation.isPending}>
            Remove
          </Button>
        ) : (
          <span />
        )}
        <Button type="submit" size="sm" disabled={!value || mutation.isPending}>
          {mutation.isPending ? (
            <Spinner className="size-4 text-primary-foreground" label="Saving" />
          ) : (
            <Check aria-hidden />
          )}
          Save
        </Button>
      </div>
    </form>
  );
}
