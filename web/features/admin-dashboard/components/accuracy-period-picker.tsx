import { useId } from 'react';
import { RECENT_PERIODS, accuracyParams, type AccuracyPeriod } from '../../../app/accuracy/accuracy-period';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';

const RANGE = 'range';

function choiceOf(period: AccuracyPeriod): string {
  return period.kind === 'recent' ? String(period.days) : RANGE;
}

interface AccuracyPeriodPickerProps {
  period: AccuracyPeriod;
  onChange: (period: AccuracyPeriod) => void;
  /** Why the chosen days cannot be asked for, shown under them. */
  error: string | null;
}

/** Last 30, 90 or 365 days, or a chosen first and last day. */
export function AccuracyPeriodPicker({ period, onChange, error }: AccuracyPeriodPickerProps) {
  const fromId = useId();
  const toId = useId();
  const errorId = useId();
  const choose = (value: string) => {
    if (value === RANGE) {
      // The chosen days start as the period shown so far, so switching to dates changes nothing until edited.
      const current = accuracyParams(period).params;
      if (current) onChange({ kind: 'range', ...current });
      return;
    }
    const days = RECENT_PERIODS.find((d) => String(d) === value);
    if (days) onChange({ kind: 'recent', days });
  };
  return (
    <div className="flex flex-wrap items-end gap-3">
      <Select value={choiceOf(period)} onValueChange={choose}>
        <SelectTrigger className="w-44" aria-label="Period">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {RECENT_PERIODS.map((days) => (
            <SelectItem key={days} value={String(days)}>
              Last {days} days
            </SelectItem>
          ))}
          <SelectItem value={RANGE}>Choose dates</SelectItem>
        </SelectContent>
      </Select>
      {period.kind === 'range' && (
        <>
          <div className="grid gap-1.5">
            <Label htmlFor={fromId}>From</Label>
            <Input
              id={fromId}
              type="date"
              className="w-40"
              value={period.from}
              max={period.to || undefined}
              onChange={(event) => onChange({ ...period, from: event.target.value })}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={toId}>To</Label>
            <Input
              id={toId}
              type="date"
              className="w-40"
              value={period.to}
              min={period.from || undefined}
              onChange={(event) => onChange({ ...period, to: event.target.value })}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
          </div>
        </>
      )}
      {error && (
        <p id={errorId} className="basis-full text-xs font-medium text-destructive" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
