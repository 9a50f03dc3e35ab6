import { memo } from 'react';
import type { AnswerStatus, CanonicalAnswerView } from '../../../../common/schemas/knowledge';
import { Checkbox } from '../../../components/ui/checkbox';
import { TagButtons } from '../../../components/ui/tag-buttons';
import { cn } from '../../../lib/cn';
import type { LibraryPermissions } from '../use-library-permissions';
import { AnswerActionsMenu } from './answer-actions-menu';
import { AnswerMeta } from './answer-meta';
import { ReverifyBadge, StatusBadge } from './status-badge';

export interface AnswerCardHandlers {
  onToggleSelect: (id: string, selected: boolean) => void;
  onOpen: (answer: CanonicalAnswerView) => void;
  onSetStatus: (answer: CanonicalAnswerView, status: AnswerStatus) => void;
  onVerify: (answer: CanonicalAnswerView) => void;
  onDelete: (answer: CanonicalAnswerView) => void;
  onTagClick: (tag: string) => void;
}

interface AnswerCardProps {
  answer: CanonicalAnswerView;
  selected: boolean;
  busy: boolean;
  permissions: LibraryPermissions;
  handlers: AnswerCardHandlers;
}

/**
 * PRODUCT library card: question, status (and "Needs re-verification"), answer (3 lines), tags, confidence, dates and
 * owner. Memoized: a long list
 * re-renders only the card whose selection or data changed.
 */
export const AnswerCard = memo(function AnswerCard({ answer, selected, busy, permissions, handlers }: AnswerCardProps) {
  const headingId = `answer-${answer.id}-question`;
  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        'rounded-xl border bg-background p-4 shadow-sm transition-colors',
        selected && 'border-indigo-300 bg-accent/40',
        busy && 'opacity-60',
      )}
    >
      <div className="flex items-start gap-3">
        <Checkbox
          className="mt-1"
          checked={selected}
          onCheckedChange={(checked) => handlers.onToggleSelect(answer.id, checked === true)}
          aria-label={`Select "${answer.question}"`}
        />
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-3">
            <h3 id={headingId} className="min-w-0 text-sm leading-snug font-semibold">
              <button
                type="button"
                className="text-left break-words outline-none hover:text-primary focus-visible:underline"
                onClick={() => handlers.onOpen(answer)}
              >
                {answer.question}
              </button>
            </h3>
            <div className="-mt-1 -mr-2 flex shrink-0 items-center gap-1">
              {answer.needsReverification && <ReverifyBadge />}
              <StatusBadge status={answer.status} />
              <AnswerActionsMenu
                answer={answer}
                permissions={permissions}
                busy={busy}
                onOpen={() => handlers.onOpen(answer)}
                onApprove={() => handlers.onSetStatus(answer, 'approved')}
                onVerify={() => handlers.onVerify(answer)}
                onArchive={() => handlers.onSetStatus(answer, 'archived')}
                onRestore={() => handlers.onSetStatus(answer, 'draft')}
                onDelete={() => handlers.onDelete(answer)}
              />
            </div>
          </div>
          {/* Plain text on purpose: imported answers may contain markup, which must never run or render. */}
          <p className="mt-1.5 line-clamp-3 text-sm break-words whitespace-pre-line text-slate-600">{answer.answer}</p>
          <TagButtons
            tags={answer.tags}
            onTagClick={handlers.onTagClick}
            titleOf={(tag) => `Show entries tagged "${tag}"`}
            className="mt-3"
          />
          <AnswerMeta answer={answer} className="mt-3" />
        </div>
      </div>
    </article>
  );
});
