import type { ReactNode } from 'react';
import type { SuggestionStatus, SuggestionView } from '../../../../common/schemas/knowledge';
import { Badge } from '../../../components/ui/badge';
import { formatDate } from '../../../lib/format';
import { SUGGESTION_STATUS_LABELS, suggestionSource } from '../suggestions';

const STATUS_VARIANT: Record<SuggestionStatus, 'warning' | 'success' | 'destructive'> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'destructive',
};

interface SuggestionCardProps {
  suggestion: SuggestionView;
  /** The approver's buttons; none for the suggester's own list. */
  actions?: ReactNode;
}

/** One suggested answer: what it says, who suggested it and where from, and what became of it. */
export function SuggestionCard({ suggestion: s, actions }: SuggestionCardProps) {
  return (
    <article className="grid gap-2 rounded-xl border bg-background p-4" aria-label={s.question}>
      <div className="flex items-start justify-between gap-3">
        <h3 className="min-w-0 text-sm leading-snug font-semibold break-words">{s.question}</h3>
        <Badge variant={STATUS_VARIANT[s.status]}>{SUGGESTION_STATUS_LABELS[s.status]}</Badge>
      </div>
      {/* Plain text on purpose: a suggestion may contain markup, which must never run or render. */}
      <p className="max-h-40 overflow-y-auto text-sm break-words whitespace-pre-line text-slate-600">{s.answer}</p>
      {s.tags.length > 0 && <p className="text-xs text-muted-foreground">Tags: {s.tags.join(', ')}</p>}
      <p className="text-xs text-muted-foreground">
        {s.suggestedBy ? `Suggested by ${s.suggestedBy.username}` : 'Suggested'} on {formatDate(s.createdAt)} ·{' '}
        {suggestionSource(s)}
      </p>
      {s.status !== 'pending' && s.decidedAt && (
        <p className="text-xs text-muted-foreground">
          {s.status === 'approved' ? 'Approved' : 'Rejected'}
          {s.decidedBy ? ` by ${s.decidedBy.username}` : ''} on {formatDate(s.decidedAt)}
        </p>
      )}
      {s.status === 'rejected' && s.reason && (
        <p className="rounded-md bg-red-50 px-3 py-2 text-sm break-words whitespace-pre-line text-red-900">
          <span className="font-medium">Reason:</span> {s.reason}
        </p>
      )}
      {actions && <div className="flex flex-wrap items-center gap-2 pt-1">{actions}</div>}
    </article>
  );
}
