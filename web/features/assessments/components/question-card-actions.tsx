import {
  BadgeCheck,
  BookCheck,
  BookPlus,
  CircleSlash,
  Pencil,
  RefreshCw,
  RotateCcw,
  Send,
  Undo2,
  UserPlus,
} from 'lucide-react';
import type { ReviewAction } from '../../../../common/review-states';
import type { AssessmentQuestionView } from '../../../../common/schemas/assessments';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { reviewActionLabel, type QuestionOffer } from '../review-rules';
import type { QuestionAction, QuestionHandlers } from '../use-question-actions';

const REVIEW_ICONS: Record<ReviewAction, typeof Send> = {
  submit: Send,
  approve: BadgeCheck,
  return: Undo2,
  not_applicable: CircleSlash,
  reopen: RotateCcw,
};

interface QuestionCardActionsProps {
  question: AssessmentQuestionView;
  offer: QuestionOffer;
  busy: QuestionAction | null;
  handlers: QuestionHandlers;
  onEdit: () => void;
}

/** The buttons of one question, as its review state and the user's permissions allow (review-rules.ts). */
export function QuestionCardActions({ question, offer, busy, handlers, onEdit }: QuestionCardActionsProps) {
  const disabled = busy !== null;
  const hasAny =
    offer.edit !== null || offer.review.length > 0 || offer.assign || offer.regenerate || offer.library !== null;
  if (!hasAny) return null;
  return (
    <div className="-ml-2 flex flex-wrap items-center gap-1">
      {offer.edit && (
        <Button variant="ghost" size="sm" onClick={onEdit} disabled={disabled}>
          <Pencil aria-hidden />
          {offer.edit}
        </Button>
      )}
      {offer.review.map((action) => {
        const Icon = REVIEW_ICONS[action];
        const label = reviewActionLabel(action, question.reviewState);
        return (
          <Button
            key={action}
            variant="ghost"
            size="sm"
            className={cn(action === 'approve' && 'text-emerald-700 hover:text-emerald-800')}
            onClick={() => handlers.onReview(question, action)}
            disabled={disabled}
          >
            {busy === action ? <Spinner className="size-4" label={label} /> : <Icon aria-hidden />}
            {label}
          </Button>
        );
      })}
      {offer.assign && (
        <Button variant="ghost" size="sm" onClick={() => handlers.onAssign(question)} disabled={disabled}>
          <UserPlus aria-hidden />
          {question.assignee ? 'Reassign' : 'Assign'}
        </Button>
      )}
      {offer.regenerate && (
        <Button variant="ghost" size="sm" onClick={() => handlers.onRegenerate(question)} disabled={disabled}>
          <RefreshCw className={cn(busy === 'regenerate' && 'animate-spin')} aria-hidden />
          Regenerate
        </Button>
      )}
      {offer.library === 'offer' && (
        <Button variant="ghost" size="sm" onClick={() => handlers.onSaveToLibrary(question)} disabled={disabled}>
          {busy === 'library' ? <Spinner className="size-4" label="Saving" /> : <BookPlus aria-hidden />}
          Save to library
        </Button>
      )}
      {(offer.library === 'saved' || offer.library === 'suggested') && (
        <Button
          variant="ghost"
          size="sm"
          disabled
          title={
            offer.library === 'saved'
              ? 'This answer is in the library.'
              : 'A manager or admin approves the suggestion before it is used in answers.'
          }
        >
          <BookCheck aria-hidden />
          {offer.library === 'saved' ? 'Saved to library' : 'Suggested to library'}
        </Button>
      )}
    </div>
  );
}
