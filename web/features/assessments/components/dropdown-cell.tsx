import { ListChecks } from 'lucide-react';
import type { AssessmentQuestionView } from '../../../../common/schemas/assessments';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';

/** Radix Select items cannot have an empty value: the "leave empty" choice goes by this one. */
const EMPTY = '__leave_empty__';

interface DropdownCellProps {
  question: AssessmentQuestionView;
  /** The user may set the value (they may answer questions) and nothing else is running on the question. */
  canPick: boolean;
  /** '' leaves the cell empty; null lets the export choose from the answer again. */
  onPick: (question: AssessmentQuestionView, value: string | null) => void;
}

/**
 * What the customer's dropdown answer cell will get from the export, beside the answer that decides it, so a
 * reviewer approves the one value the customer scores rather than only the text; a person may pick another value
 * (or none) from the cell's own list.
 */
export function DropdownCell({ question, canPick, onPick }: DropdownCellProps) {
  const cell = question.dropdownCell;
  if (!cell) return null;
  const labelId = `question-${String(question.orderIndex)}-dropdown`;
  const how = cell.picked ? 'Picked by a person.' : cell.value !== null ? 'Chosen from the answer.' : cell.reason;
  return (
    <section
      aria-labelledby={labelId}
      className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md bg-surface px-3 py-2 text-xs"
    >
      <h4 id={labelId} className="flex items-center gap-1.5 font-medium text-muted-foreground">
        <ListChecks className="size-3.5" aria-hidden />
        Customer&apos;s dropdown
      </h4>
      {canPick ? (
        <Select value={cell.value ?? EMPTY} onValueChange={(next) => onPick(question, next === EMPTY ? '' : next)}>
          <SelectTrigger
            className="h-7 w-auto max-w-full min-w-24 text-xs"
            aria-label="Value for the customer's dropdown"
          >
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {cell.allowed.map((value) => (
              <SelectItem key={value} value={value}>
                {value}
              </SelectItem>
            ))}
            <SelectItem value={EMPTY}>Leave empty</SelectItem>
          </SelectContent>
        </Select>
      ) : (
        <span className="font-medium break-words text-slate-800">{cell.value ?? 'Left empty'}</span>
      )}
      {how && <span className="min-w-0 break-words text-muted-foreground">{how}</span>}
      {cell.picked && canPick && (
        <button
          type="button"
          className="rounded-sm font-medium text-primary underline-offset-2 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          onClick={() => onPick(question, null)}
        >
          Follow the answer
        </button>
      )}
    </section>
  );
}
