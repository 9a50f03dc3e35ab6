import { CircleAlert, CircleCheck, CircleDot, CircleHelp, CircleSlash, Clock, type LucideIcon } from 'lucide-react';
import type { AssessmentQuestionView } from '../../../../common/schemas/assessments';
import { Spinner } from '../../../components/ui/spinner';

type StatusFields = Pick<AssessmentQuestionView, 'status' | 'answerType' | 'answerOrigin' | 'reviewState'>;

export interface QuestionStatusLook {
  label: string;
  /** The text colour of the icon. */
  tone: string;
  icon: LucideIcon | 'spinner';
}

/**
 * A question's mark at a glance. While the worker has it, its progress (pending, processing, failed); once answered,
 * where the answer stands: a green check only for an approved answer, a red mark for a question nothing answers
 * (PRODUCT §8: unanswered is red), and a neutral dot for an answer still to be reviewed.
 */
export function questionStatusLook(question: StatusFields): QuestionStatusLook {
  switch (question.status) {
    case 'pending':
      return { label: 'Pending', tone: 'text-muted-foreground', icon: Clock };
    case 'processing':
      return { label: 'Processing', tone: 'text-primary', icon: 'spinner' };
    case 'failed':
      return { label: 'Failed', tone: 'text-red-600', icon: CircleAlert };
    case 'completed':
      break;
  }
  if (question.reviewState === 'approved') return { label: 'Approved', tone: 'text-emerald-600', icon: CircleCheck };
  if (question.reviewState === 'not_applicable') {
    return { label: 'Not applicable', tone: 'text-muted-foreground', icon: CircleSlash };
  }
  const unanswered =
    question.reviewState === 'needs_answer' ||
    (question.answerOrigin !== 'person' && question.answerType === 'unknown');
  if (unanswered) return { label: 'Needs review', tone: 'text-red-600', icon: CircleHelp };
  return { label: 'Answered, not yet approved', tone: 'text-slate-500', icon: CircleDot };
}

/** The question's mark (see questionStatusLook); the label is for screen readers and the tooltip. */
export function QuestionStatusIcon({ question }: { question: StatusFields }) {
  const { label, tone, icon: Icon } = questionStatusLook(question);
  if (Icon === 'spinner') return <Spinner className="size-4" label={label} />;
  return (
    <span title={label} className={tone}>
      <Icon className="size-4 shrink-0" role="img" aria-label={label} />
    </span>
  );
}
