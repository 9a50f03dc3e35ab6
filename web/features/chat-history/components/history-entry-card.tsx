import { memo, useState } from 'react';
import { BookOpen, ChevronDown, FileText } from 'lucide-react';
import type { AnswerSource, HistoryEntryView } from '../../../../common/schemas/qa';
import { AnswerTypeBadge } from '../../../components/knowledge/answer-type-badge';
import { ConfidenceBadge } from '../../../components/knowledge/confidence-badge';
import { cn } from '../../../lib/cn';
import { formatDateTime, initials } from '../../../lib/format';

function sourceLabel(source: AnswerSource): string {
  if (source.type === 'library') return source.question ?? 'Library entry';
  const page = source.pageNumber ? `, page ${String(source.pageNumber)}` : '';
  return `${source.name ?? 'Document'}${page}`;
}

/** PRODUCT chat history entry: username, time, type badge, confidence, question, answer and sources count. */
export const HistoryEntryCard = memo(function HistoryEntryCard({ entry }: { entry: HistoryEntryView }) {
  const [expanded, setExpanded] = useState(false);
  const username = entry.username ?? 'Deleted user';
  const sourceCount = entry.sources.length;
  return (
    <article aria-label={entry.question} className="rounded-xl border bg-background p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-accent text-xs font-semibold text-primary">
          {initials({ username: entry.username })}
        </span>
        <span className="text-sm font-medium">{username}</span>
        <time dateTime={entry.createdAt} className="text-xs text-muted-foreground">
          {formatDateTime(entry.createdAt)}
        </time>
        <span className="ml-auto flex items-center gap-2">
          <AnswerTypeBadge answerType={entry.answerType} confidence={entry.confidence} />
          <ConfidenceBadge confidence={entry.confidence} />
        </span>
      </div>
      <h3 className="mt-3 text-sm leading-snug font-semibold break-words">{entry.question}</h3>
      {/* Plain text on purpose: answers may quote markup from documents, which must never render. */}
      <p
        className={cn(
          'mt-1.5 text-sm leading-relaxed break-words whitespace-pre-line text-slate-600',
          !expanded && 'line-clamp-3',
        )}
      >
        {entry.answer}
      </p>
      <div className="mt-3 flex items-center gap-3 text-xs text-muted-foreground">
        <span>
          {sourceCount} {sourceCount === 1 ? 'source' : 'sources'}
        </span>
        <button
          type="button"
          className="flex items-center gap-1 rounded-sm font-medium text-primary outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          aria-expanded={expanded}
          onClick={() => setExpanded((value) => !value)}
        >
          {expanded ? 'Show less' : 'Show full answer'}
          <ChevronDown className={cn('size-3.5 transition-transform', expanded && 'rotate-180')} aria-hidden />
        </button>
      </div>
      {expanded && sourceCount > 0 && (
        <ul className="mt-2 grid gap-1 border-t pt-2" aria-label="Sources">
          {entry.sources.map((source, index) => {
            const Icon = source.type === 'library' ? BookOpen : FileText;
            return (
              <li
                key={`${source.canonicalAnswerId ?? source.documentId ?? ''}-${String(index)}`}
                className="flex items-start gap-2 text-xs text-slate-600"
              >
                <Icon className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" aria-hidden />
                <span className="min-w-0 break-words">{sourceLabel(source)}</span>
              </li>
            );
          })}
        </ul>
      )}
    </article>
  );
});
