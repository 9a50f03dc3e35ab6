import { useId, useState } from 'react';
import { Input } from '../../../components/ui/input';
import { parseRowNumber, rowNumberText } from '../mapping-rows';

interface RowNumberFieldProps {
  label: string;
  /** The accessible name, naming the sheet: several sheets' boxes are on screen at once. */
  name: string;
  /** The mapping's 0-based row; undefined or -1 for none. */
  value: number | undefined;
  rowCount: number;
  /** What an empty box means ("None", "Under the header", "Last row"). */
  placeholder: string;
  /** Applies a row (null: none); returns the sentence to show when the row does not go with the others. */
  onCommit: (row: number | null) => string | null;
}

/**
 * A row number of a sheet, as the spreadsheet numbers it. Applied when the box is left or Enter is pressed, not at
 * each keystroke: "1" on the way to "12" would preview the sheet again, or be refused, for nothing.
 */
export function RowNumberField({ label, name, value, rowCount, placeholder, onCommit }: RowNumberFieldProps) {
  const errorId = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const commit = () => {
    if (draft === null) return;
    const parsed = parseRowNumber(draft, rowCount);
    if (parsed !== null && typeof parsed === 'object') {
      setError(parsed.invalid);
      return;
    }
    const current = value === undefined || value < 0 ? null : value;
    const problem = parsed === current ? null : onCommit(parsed);
    setError(problem);
    if (problem === null) setDraft(null);
  };
  return (
    <label className="grid min-w-0 content-start gap-1 text-xs text-muted-foreground">
      {label}
      <Input
        type="number"
        inputMode="numeric"
        min={1}
        max={rowCount}
        step={1}
        className="h-8 text-foreground tabular-nums"
        aria-label={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        placeholder={placeholder}
        value={draft ?? rowNumberText(value)}
        onChange={(event) => {
          setDraft(event.target.value);
          setError(null);
        }}
        onBlur={commit}
        onKeyDown={(event) => {
          // Enter applies the row; it must not submit the import form around it.
          if (event.key !== 'Enter') return;
          event.preventDefault();
          commit();
        }}
      />
      {error && (
        <span id={errorId} className="text-destructive" role="alert">
          {error}
        </span>
      )}
    </label>
  );
}
