import { useId, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { Plus, X } from 'lucide-react';
import { Button } from './button';
import { Input } from './input';
import { FieldError, Label } from './label';
import { cn } from '../../lib/cn';

interface TokenListInputProps {
  label: string;
  value: readonly string[];
  onChange: (tokens: string[]) => void;
  /** Longest token and most tokens accepted; longer or extra ones are refused with a message. */
  maxLength: number;
  maxCount: number;
  hint?: string;
  placeholder?: string;
  error?: string;
  disabled?: boolean;
}

/**
 * A list of short texts shown as removable chips. Enter (or the Add button) adds what was typed; pasting several
 * lines adds one token per line. Duplicates, ignoring case, are added once.
 */
export function TokenListInput({
  label,
  value,
  onChange,
  maxLength,
  maxCount,
  hint,
  placeholder,
  error,
  disabled = false,
}: TokenListInputProps) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const message = problem ?? error;

  const add = (texts: string[]): boolean => {
    const next = [...value];
    const known = new Set(value.map((t) => t.toLowerCase()));
    for (const raw of texts) {
      const token = raw.trim();
      if (!token || known.has(token.toLowerCase())) continue;
      if (token.length > maxLength) {
        setProblem(`Each entry must be at most ${maxLength} characters`);
        return false;
      }
      if (next.length >= maxCount) {
        setProblem(`At most ${maxCount} entries are allowed`);
        return false;
      }
      next.push(token);
      known.add(token.toLowerCase());
    }
    setProblem(null);
    if (next.length !== value.length) onChange(next);
    return true;
  };

  const commitDraft = () => {
    if (add([draft])) setDraft('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      // Enter adds the token instead of submitting the surrounding form.
      event.preventDefault();
      commitDraft();
    } else if (event.key === 'Backspace' && draft === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (!/[\r\n]/.test(text)) return;
    event.preventDefault();
    add(text.split(/\r?\n/));
  };

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {value.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label={label}>
          {value.map((token) => (
            <li
              key={token}
              className="inline-flex max-w-full items-center gap-1 rounded-full border bg-muted py-0.5 pr-1 pl-2.5 text-xs font-medium text-slate-700"
            >
              {/* Shown as typed: tokens are plain text, never patterns. */}
              <span className="truncate font-mono">{token}</span>
              {!disabled && (
                <button
                  type="button"
                  className="rounded-full p-0.5 text-muted-foreground outline-none hover:bg-slate-200 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
                  onClick={() => onChange(value.filter((t) => t !== token))}
                  aria-label={`Remove ${token}`}
                >
                  <X className="size-3" aria-hidden />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {disabled && value.length === 0 && <p className="text-sm text-muted-foreground">None</p>}
      {!disabled && (
        <div className="flex gap-2">
          <Input
            id={id}
            value={draft}
            placeholder={placeholder}
            onChange={(event) => {
              setDraft(event.target.value);
              setProblem(null);
            }}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            aria-invalid={message ? true : undefined}
            aria-describedby={[hint ? hintId : null, message ? errorId : null].filter(Boolean).join(' ') || undefined}
          />
          <Button variant="outline" onClick={commitDraft} disabled={draft.trim() === ''}>
            <Plus aria-hidden />
            Add
          </Button>
        </div>
      )}
      <p id={hintId} className={cn('text-xs text-muted-foreground', !hint && 'sr-only')}>
        {hint} {value.length}/{maxCount}
      </p>
      <FieldError id={errorId}>{message}</FieldError>
    </div>
  );
}
