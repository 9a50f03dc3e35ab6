import { BadgeCheck, CalendarClock, CircleDashed, CircleSlash, Eye, PenLine } from 'lucide-react';
import { REVIEW_STATE_LABELS, type ReviewState } from '../../../common/review-states';
import { Badge, type BadgeVariant } from '../../components/ui/badge';
import { cn } from '../../lib/cn';
import { formatDate } from '../../lib/format';
import { parseDay } from './review-rules';

const REVIEW_STATE_VARIANTS: Record<ReviewState, BadgeVariant> = {
  needs_answer: 'destructive',
  drafted: 'secondary',
  in_review: 'info',
  approved: 'success',
  not_applicable: 'outline',
};

const REVIEW_STATE_ICONS: Record<ReviewState, typeof BadgeCheck> = {
  needs_answer: CircleDashed,
  drafted: PenLine,
  in_review: Eye,
  approved: BadgeCheck,
  not_applicable: CircleSlash,
};

/** Where a question's answer stands in review: Needs answer, Drafted, In review, Approved or Not applicable. */
export function ReviewStateBadge({ state, className }: { state: ReviewState; className?: string }) {
  const Icon = REVIEW_STATE_ICONS[state];
  return (
    <Badge variant={REVIEW_STATE_VARIANTS[state]} className={className}>
      <Icon aria-hidden />
      {REVIEW_STATE_LABELS[state]}
    </Badge>
  );
}

/** 'Mar 4, 2025' for a calendar day (YYYY-MM-DD), on that day wherever the user is. */
export function formatDay(day: string): string {
  const date = parseDay(day);
  return date ? formatDate(date) : day;
}

interface DueDateProps {
  dueOn: string;
  overdue: boolean;
  /** What comes before the day: 'Due' unless told. */
  label?: string;
  className?: string;
}

/** "Due Mar 4, 2025", in red with "Overdue" once the day passed with the work not done. */
export function DueDate({ dueOn, overdue, label = 'Due', className }: DueDateProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 whitespace-nowrap',
        overdue ? 'font-medium text-red-700' : 'text-muted-foreground',
        className,
      )}
    >
      <CalendarClock className="size-3.5 shrink-0" aria-hidden />
      {label} {formatDay(dueOn)}
      {overdue && (
        <Badge variant="destructive" className="ml-1">
          Overdue
        </Badge>
      )}
    </span>
  );
}
