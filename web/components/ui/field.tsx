import { useId, type ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { FieldError, Label } from './label';

/** What the control inside a Field spreads onto itself so its label, hint and error reach assistive technology. */
export interface FieldControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

export interface FieldProps {
  label: string;
  /** Validation message; marks the control invalid and is announced with it. */
  error?: string;
  hint?: ReactNode;
  /** The control's id; one is generated when absent. */
  id?: string;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}

/** A label, any control, its hint and its validation message, wired together by id. */
export function Field({ label, error, hint, id, className, children }: FieldProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={controlId}>{label}</Label>
      {children({ id: controlId, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
