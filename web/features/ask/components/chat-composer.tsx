import { useId, useRef, type ChangeEvent, type KeyboardEvent } from 'react';
import { LoaderCircle, Paperclip, SendHorizontal } from 'lucide-react';
import { QUESTION_MAX_LENGTH } from '../../../../common/constants';
import { Button } from '../../../components/ui/button';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/format';

interface ChatComposerProps {
  value: string;
  onChange: (value: string) => void;
  /** Sends the text; true when it was sent, so the box can be cleared. */
  onSend: (text: string) => boolean;
  /** A question is being answered: PRODUCT §7 disables Send meanwhile. */
  busy: boolean;
  /** Why the user cannot ask at all (e.g. a viewer); the composer is disabled and says so. */
  disabledReason?: string;
}

/** Text files of questions, one per line, can be attached instead of pasted. */
const ATTACH_ACCEPT = '.txt,.csv,.md,text/plain,text/csv,text/markdown';
/** Larger files are questionnaires for a bulk import, not for the chat box. */
const ATTACH_MAX_BYTES = 256 * 1024;

/** Lines of a text or one-column CSV file, without blank lines and the quotes a spreadsheet export adds. */
function questionsFromFile(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) =>
      line
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .replace(/""/g, '"')
        .trim(),
    )
    .filter(Boolean);
}

/**
 * PRODUCT §7 composer: at most 2000 characters, Enter sends, Shift+Enter adds a line, Send disabled while blank or
 * while a question is being answered.
 */
export function ChatComposer({ value, onChange, onSend, busy, disabledReason }: ChatComposerProps) {
  const hintId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const disabled = disabledReason !== undefined;
  const canSend = !disabled && !busy && value.trim() !== '';

  const send = () => {
    if (!canSend) return;
    if (onSend(value)) onChange('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An IME's Enter confirms the composed characters; it must not send the half-typed question.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  const attach = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > ATTACH_MAX_BYTES) {
      toast({
        title: 'Invalid file',
        description: 'Attach a text file of at most 256 KB with one question per line.',
        variant: 'destructive',
      });
      return;
    }
    const lines = questionsFromFile(await file.text());
    if (lines.length === 0) {
      toast({ title: 'Invalid file', description: `${file.name} holds no questions.`, variant: 'destructive' });
      return;
    }
    const combined = [value.trim(), ...lines].filter(Boolean).join('\n');
    if (combined.length > QUESTION_MAX_LENGTH) {
      toast({
        title: 'Too many questions for one message',
        description: `Only the first ${formatNumber(QUESTION_MAX_LENGTH)} characters were added. Send them, then attach the rest.`,
      });
    }
    onChange(combined.slice(0, QUESTION_MAX_LENGTH));
  };

  return (
    <form
      className="border-t bg-background px-8 py-4"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <div
        className={cn(
          'rounded-xl border border-input bg-background shadow-sm transition-colors focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/30',
          disabled && 'bg-surface',
        )}
      >
        <Textarea
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          maxLength={QUESTION_MAX_LENGTH}
          rows={2}
          disabled={disabled}
          placeholder="Ask a question or paste multiple questions here..."
          aria-label="Question"
          aria-describedby={hintId}
          className="max-h-48 min-h-16 resize-none border-0 bg-transparent shadow-none [field-sizing:content] focus-visible:ring-0"
        />
        <div className="flex items-center gap-2 px-2 pb-2">
          <input
            ref={fileInput}
            type="file"
            accept={ATTACH_ACCEPT}
            className="hidden"
            tabIndex={-1}
            onChange={(event) => void attach(event)}
          />
          <Button
            variant="ghost"
            size="sm"
            disabled={disabled}
            onClick={() => fileInput.current?.click()}
            title="Attach a text file of questions, one per line"
          >
            <Paperclip aria-hidden />
            Attach
          </Button>
          <p id={hintId} className="ml-auto text-xs text-muted-foreground">
            {disabledReason ?? 'Shift + Enter for new line'}
          </p>
          <span
            className={cn(
              'text-xs tabular-nums',
              value.length >= QUESTION_MAX_LENGTH ? 'font-medium text-destructive' : 'text-muted-foreground',
            )}
          >
            {value.length}/{QUESTION_MAX_LENGTH}
          </span>
          <Button type="submit" size="sm" disabled={!canSend}>
            {busy ? <LoaderCircle className="animate-spin" aria-hidden /> : <SendHorizontal aria-hidden />}
            Send
          </Button>
        </div>
      </div>
    </form>
  );
}
