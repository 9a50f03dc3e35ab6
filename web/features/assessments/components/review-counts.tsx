import { REVIEW_STATE_LABELS, REVIEW_STATES, type ReviewState } from '../../../../common/review-states';
import type { ReviewCounts as Counts } from '../../../../common/schemas/assessments';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/format';

/** Each review state's colour, wherever its count is shown. */
export const REVIEW_DOTS: Record<ReviewState, string> = {
  needs_answer: 'bg-red-500',
  drafted: 'bg-slate-400',
  in_review: 'bg-teal-500',
  approved: 'bg-emerald-500',
  not_applicable: 'bg-slate-300',
};

interface ReviewCountsProps {
  counts: Counts;
  /** The review state the question list is filtered to ('all': none). */
  active: ReviewState | 'all';
  /** Shows only that state's questions; the active one again shows them all. */
  onSelect: (state: ReviewState | 'all') => void;
}

/** How many questions are in each review state; each count filters the list to its questions. */
export function ReviewCounts({ counts, active, onSelect }: ReviewCountsProps) {
  return (
    <ul aria-label="Review states" className="flex flex-wrap gap-1.5">
      {REVIEW_STATES.map((state) => {
        const pressed = active === state;
        return (
          <li key={state}>
            <button
              type="button"
              aria-pressed={pressed}
              onClick={() => onSelect(pressed ? 'all' : state)}
              className={cn(
                'flex items-center gap-1.5 rounded-full border bg-background px-2.5 py-1 text-xs text-slate-700 transition-colors outline-none',
                'hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring',
                pressed && 'border-primary bg-accent text-accent-foreground',
              )}
            >
              <span className={cn('size-2 rounded-full', REVIEW_DOTS[state])} aria-hidden />
              {REVIEW_STATE_LABELS[state]}
              <span className="font-semibold tabular-nums">{formatNumber(counts[state])}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
