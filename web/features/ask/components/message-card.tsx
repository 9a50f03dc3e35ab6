import { memo } from 'react';
import { BadgeCheck, BookPlus, Check, CircleAlert, Copy, Info, RotateCcw, ShieldCheck, UserRound } from 'lucide-react';
import { AnswerTypeBadge } from '../../../components/knowledge/answer-type-badge';
import { ConfidenceBadge } from '../../../components/knowledge/confidence-badge';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { copyToClipboard } from '../../../components/ui/copy-to-clipboard';
import { formatDate, formatDateTime } from '../../../lib/format';
import type { ChatMessage } from '../chat-store';
import { AnswerSources } from './answer-sources';

interface MessageCardProps {
  message: ChatMessage;
  /** Offered for questions nobody has answered yet, to people who may add library entries. */
  onAddToLibrary?: (message: ChatMessage) => void;
  /** Asks a failed question again; absent while another question is being answered. */
  onRetry?: (message: ChatMessage) => void;
}

/** The specification message card: the question, then 'Processing your question...' or the answer with its type, confidence and sources. */
export const MessageCard = memo(function MessageCard({ message, onAddToLibrary, onRetry }: MessageCardProps) {
  const { answer, answerType } = message;
  return (
    <article aria-label={message.question} className="grid grid-cols-[minmax(0,1fr)] gap-3">
      <div className="flex items-start justify-end gap-3">
        <div className="max-w-[85%] min-w-0 rounded-2xl rounded-tr-sm bg-primary px-4 py-2.5 text-sm leading-relaxed wrap-anywhere whitespace-pre-wrap text-primary-foreground shadow-sm">
          {message.question}
        </div>
        <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <UserRound className="size-4" aria-hidden />
          <span className="sr-only">You asked at {formatDateTime(message.timestamp)}</span>
        </span>
      </div>

      <div className="flex items-start gap-3">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent text-primary">
          <ShieldCheck className="size-4" aria-hidden />
        </span>
        <div className="min-w-0 flex-1 rounded-xl border bg-background p-4 shadow-sm">
          {message.isLoading ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Spinner className="size-4" label="Answering" />
              Processing your question...
            </p>
          ) : message.failed !== null ? (
            <div className="flex flex-wrap items-center gap-3">
              <p className="flex min-w-0 flex-1 items-start gap-2 text-sm text-destructive">
                <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                <span>
                  <span className="font-medium">Not answered.</span> {message.failed}
                </span>
              </p>
              <Button variant="outline" size="sm" onClick={() => onRetry?.(message)} disabled={!onRetry}>
                <RotateCcw aria-hidden />
                Retry
              </Button>
            </div>
          ) : answer === null || answerType === null ? (
            <p className="text-sm text-muted-foreground">No answer available for this question.</p>
          ) : (
            <>
              <div className="flex flex-wrap items-center gap-2">
                <AnswerTypeBadge answerType={answerType} confidence={message.confidence} />
                <ConfidenceBadge confidence={message.confidence} />
                {message.lastVerified && (
                  <span className="flex items-center gap-1 text-xs text-muted-foreground">
                    <BadgeCheck className="size-3.5" aria-hidden />
                    Last verified {formatDate(message.lastVerified)}
                  </span>
                )}
                {/* 'Needs Review' text is a notice, not an answer anyone would paste into a questionnaire. */}
                {answerType !== 'unknown' && (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="-my-1 ml-auto text-muted-foreground"
                    onClick={() => void copyToClipboard(answer)}
                    aria-label="Copy answer"
                  >
                    <Copy aria-hidden />
                    Copy
                  </Button>
                )}
              </div>
              {message.note && (
                <p className="mt-3 flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900">
                  <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden />
                  {message.note}
                </p>
              )}
              {/* Plain text on purpose: library answers and document text may hold markup that must not render. */}
              <p className="mt-3 text-sm leading-relaxed wrap-anywhere whitespace-pre-line text-slate-700">{answer}</p>
              {answerType === 'unknown' && message.addedToLibrary && (
                <p className="mt-4 flex items-center gap-2 rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2.5 text-xs text-emerald-900">
                  <Check className="size-4 shrink-0" aria-hidden />
                  Added to the library. Ask again to get the new answer.
                </p>
              )}
              {answerType === 'unknown' && !message.addedToLibrary && onAddToLibrary && (
                <div className="mt-4 flex flex-wrap items-center gap-3 rounded-lg border border-dashed bg-surface px-3 py-2.5">
                  <p className="min-w-0 flex-1 text-xs text-muted-foreground">
                    Know the answer? Add it to the library and this question is answered from now on.
                  </p>
                  <Button variant="outline" size="sm" onClick={() => onAddToLibrary(message)}>
                    <BookPlus aria-hidden />
                    Add to library
                  </Button>
                </div>
              )}
              <AnswerSources sources={message.sources} />
            </>
          )}
        </div>
      </div>
    </article>
  );
});
