import type { AnswerType } from '../../../common/schemas/qa';
import { cn } from '../../lib/cn';
import { Badge, type BadgeVariant } from '../ui/badge';

/** PRODUCT §8 answer type labels. */
export const ANSWER_TYPE_LABELS: Record<AnswerType, string> = {
  canonical: 'Canonical Answer',
  generated: 'Generated Answer',
  draft: 'Draft Answer',
  unknown: 'Needs Review',
};

/**
 * PRODUCT §8 colours: canonical success, generated warning. the specification leaves drafts and unanswered questions uncoloured;
 * they get their own so that a question still needing an answer stands out in a long chat.
 */
const ANSWER_TYPE_VARIANTS: Record<AnswerType, BadgeVariant> = {
  canonical: 'success',
  generated: 'warning',
  draft: 'info',
  unknown: 'destructive',
};

/** PRODUCT §8: generated answers at 80% or more show a strong (solid) badge. */
export const STRONG_GENERATED_CONFIDENCE = 80;

interface AnswerTypeBadgeProps {
  answerType: AnswerType;
  confidence: number;
  className?: string;
}

export function AnswerTypeBadge({ answerType, confidence, className }: AnswerTypeBadgeProps) {
  const strong = answerType === 'generated' && confidence >= STRONG_GENERATED_CONFIDENCE;
  return (
    <Badge variant={ANSWER_TYPE_VARIANTS[answerType]} className={cn(strong && 'bg-amber-500 text-white', className)}>
      {ANSWER_TYPE_LABELS[answerType]}
    </Badge>
  );
}
