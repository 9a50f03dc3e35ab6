import { useId, useState } from 'react';
import { ChevronDown } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover';
import { columnLabel, columnLetter, MAX_CHOICE_COLUMNS, MIN_CHOICE_COLUMNS } from '../questionnaire-mapping';

/** A column an answer is marked under, and the answer it stands for. */
export interface ChosenChoice {
  column: number;
  label: string;
}

interface AnswerChoiceColumnsProps {
  sheetName: string;
  /** The sheet's header labels, by column. */
  labels: readonly string[];
  /** The columns that may be choices, by index (every one but the question column). */
  offered: readonly number[];
  chosen: readonly ChosenChoice[];
  /** Fewer than MIN_CHOICE_COLUMNS are ticked: the sheet is still read by one answer column. */
  unsent: boolean;
  /** The chosen columns are the preview's own: their labels can be changed (not while a change is on its way). */
  labelsEditable: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onToggle: (column: number, checked: boolean) => void;
  onLabel: (column: number, label: string) => void;
  /** Back to one answer column. */
  onSingle: () => void;
}

/** A choice's label, applied when the box is left or Enter is pressed: each keystroke would read the sheet again. */
function ChoiceLabelInput({
  choice,
  name,
  onLabel,
}: {
  choice: ChosenChoice;
  name: string;
  onLabel: (column: number, label: string) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft !== null && draft.trim() !== choice.label) onLabel(choice.column, draft);
    setDraft(null);
  };
  return (
    <Input
      className="h-7 w-28 shrink-0 px-2 text-xs sm:w-32"
      aria-label={name}
      maxLength={200}
      value={draft ?? choice.label}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        // Enter applies the label; it must not submit the import form around it.
        if (event.key !== 'Enter') return;
        event.preventDefault();
        commit();
      }}
    />
  );
}

/**
 * In place of the answer column, for a sheet answered by a mark under one of several columns (Yes / No / N/A): which
 * columns those are, 2 to 10 of them, each with the answer it stands for (its header unless changed), and the way
 * back to one answer column.
 */
export function AnswerChoiceColumns({
  sheetName,
  labels,
  offered,
  chosen,
  unsent,
  labelsEditable,
  open,
  onOpenChange,
  onToggle,
  onLabel,
  onSingle,
}: AnswerChoiceColumnsProps) {
  const hintId = useId();
  const summary =
    chosen.length === 0
      ? `Tick ${String(MIN_CHOICE_COLUMNS)} to ${String(MAX_CHOICE_COLUMNS)} columns`
      : chosen.map((choice) => `${columnLetter(choice.column)} · ${choice.label}`).join(', ');
  return (
    <div className="grid min-w-0 gap-1 text-xs text-muted-foreground">
      <span aria-hidden>Answered by a mark under</span>
      <Popover open={open} onOpenChange={onOpenChange}>
        <PopoverTrigger asChild>
          <button
            type="button"
            aria-label={`Answer choice columns of ${sheetName}`}
            className="flex h-8 w-full min-w-0 items-center justify-between gap-2 rounded-md border border-input bg-background px-3 text-left text-sm text-foreground shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30"
          >
            <span className={chosen.length === 0 ? 'truncate text-muted-foreground' : 'truncate'}>{summary}</span>
            <ChevronDown className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          </button>
        </PopoverTrigger>
        <PopoverContent
          className="grid w-[min(24rem,calc(100vw-2rem))] gap-2 p-2.5"
          aria-label={`Answer choice columns of ${sheetName}`}
        >
          <p id={hintId} className="text-xs text-muted-foreground">
            Each row is answered by a mark under one of these columns. A column&apos;s label is the answer it stands
            for: a Yes, No or N/A answer is marked under the column labelled so.
          </p>
          <ul className="grid max-h-64 gap-1 overflow-y-auto" aria-label={`Columns of ${sheetName}`}>
            {offered.map((column) => {
              const choice = chosen.find((c) => c.column === column);
              const checked = choice !== undefined;
              // At most ten; a focused box is never disabled under the user, so unticking is always allowed.
              const locked = !checked && chosen.length >= MAX_CHOICE_COLUMNS;
              const boxId = `${hintId}-${String(column)}`;
              return (
                <li key={column} className="flex min-h-7 min-w-0 items-center gap-2 text-sm">
                  <Checkbox
                    id={boxId}
                    checked={checked}
                    disabled={locked}
                    aria-describedby={hintId}
                    onCheckedChange={(value) => onToggle(column, value === true)}
                  />
                  <label htmlFor={boxId} className="min-w-0 flex-1 truncate">
                    {columnLabel(labels, column)}
                  </label>
                  {choice && labelsEditable && (
                    <ChoiceLabelInput
                      choice={choice}
                      name={`Label of column ${columnLetter(column)}`}
                      onLabel={onLabel}
                    />
                  )}
                </li>
              );
            })}
          </ul>
          {unsent && (
            <p className="text-xs text-muted-foreground" role="status">
              Tick at least {MIN_CHOICE_COLUMNS} columns; until then the sheet is read by one answer column.
            </p>
          )}
          <Button variant="outline" size="sm" className="justify-self-start" onClick={onSingle}>
            Use one answer column instead
          </Button>
        </PopoverContent>
      </Popover>
    </div>
  );
}
