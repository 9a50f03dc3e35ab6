import { useId, useMemo, useRef, type ChangeEvent, type KeyboardEvent } from 'react';
import { Info, LoaderCircle, Lock, Paperclip, SendHorizontal, TriangleAlert } from 'lucide-react';
import { QUESTION_MAX_LENGTH } from '../../../../common/constants';
import { Button } from '../../../components/ui/button';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { cn } from '../../../lib/cn';
import { checkComposerText } from '../composer-check';

interface ChatComposerProps {
  value: string;
  onChange: (value: string) => void;
  /** Sends the text; true when it was sent, so the box can be cleared. */
  onSend: (text: string) => boolean;
  /** A question is being answered: PRODUCT §7 disables Send meanwhile. */
  busy: boolean;
  /** Why the user cannot ask at all (e.g. a viewer); the composer is disabled and says so. */
  disabledReason?: string;
  /** Something to know before sending, e.g. that a question will start a new chat. */
  notice?: string;
  /** Opens Bulk Import, offered when the text looks like a questionnaire. */
  onBulkImport?: () => void;
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
 * PRODUCT §7 composer: Enter sends, Shift+Enter adds a line, Send disabled while blank or while a question is being
 * answered. A paste is never cut: past 2,000 characters the composer says what will be sent (checkComposerText).
 */
export function ChatComposer({
  value,
  onChange,
  onSend,
  busy,
  disabledReason,
  notice,
  onBulkImport,
}: ChatComposerProps) {
  const hintId = useId();
  const warningId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const disabled = disabledReason !== undefined;
  const check = useMemo(() => checkComposerText(value), [value]);
  const canSend = !disabled && !busy && value.trim() !== '' && !check.tooMany;

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
    // Whole lines, never cut: past 2,000 characters the composer says what will be sent.
    onChange([value.trim(), ...lines].filter(Boolean).join('\n'));
  };

  return (
    <form
      className="border-t bg-background px-4 py-4 md:px-8"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {disabledReason !== undefined && (
        <p
          id={hintId}
          role="note"
          className="mb-2 flex items-start gap-2 rounded-lg border bg-surface px-3 py-2 text-sm text-slate-700"
        >
          <Lock className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
          {disabledReason}
        </p>
      )}
      {!disabled && check.warning !== null && (
        <div
          id={warningId}
          role="status"
          className="mb-2 flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          <p>
            {check.warning}
            {check.suggestBulkImport && (
              <>
                {' For a questionnaire, use '}
                {onBulkImport ? (
                  <button
                    type="button"
                    className="rounded-sm font-medium underline underline-offset-2 outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    onClick={onBulkImport}
                  >
                    Bulk Import
                  </button>
                ) : (
                  'Bulk Import'
                )}
                .
              </>
            )}
          </p>
        </div>
      )}
      {!disabled && notice !== undefined && (
        <p className="mb-2 flex items-center gap-2 text-xs text-muted-foreground">
          <Info className="size-3.5 shrink-0" aria-hidden />
          {notice}
        </p>
      )}
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
          rows={2}
          disabled={disabled}
          placeholder="Ask a question or paste multiple questions here..."
          aria-label="Question"
          aria-describedby={check.warning !== null ? `${warningId} ${hintId}` : hintId}
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
          {disabled ? (
            <span className="ml-auto" />
          ) : (
            <p id={hintId} className="ml-auto text-xs text-muted-foreground">
              Shift + Enter for new line
            </p>
          )}
          <span
            className={cn(
              'text-xs tabular-nums',
              value.length > QUESTION_MAX_LENGTH ? 'font-medium text-amber-800' : 'text-muted-foreground',
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
