import { Copy } from 'lucide-react';
import { cn } from '../../lib/cn';
import { Button } from './button';
import { copyToClipboard } from './copy-to-clipboard';
import { Input } from './input';
import { Label } from './label';

interface CopyFieldProps {
  id: string;
  label: string;
  value: string;
  /** Said in the failure toast when the clipboard refuses. */
  failureHint?: string;
  inputClassName?: string;
}

/** A read-only value (a link, a secret) in monospace with a Copy button; focusing it selects it all. */
export function CopyField({ id, label, value, failureHint, inputClassName }: CopyFieldProps) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          readOnly
          value={value}
          spellCheck={false}
          className={cn('font-mono text-xs', inputClassName)}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="outline" onClick={() => void copyToClipboard(value, failureHint)}>
          <Copy aria-hidden />
          Copy
        </Button>
      </div>
    </div>
  );
}
