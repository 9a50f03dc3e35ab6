import { BadgeCheck, CircleHelp, PenLine, Sparkles, type LucideIcon } from 'lucide-react';
import type { AnswerType } from '../../../common/schemas/qa';
import { cn } from '../../lib/cn';
import { Badge } from '../ui/badge';

/** PRODUCT §8 answer type labels. */
export const ANSWER_TYPE_LABELS: Record<AnswerType, string> = {
  canonical: 'Canonical Answer',
  generated: 'Generated Answer',
  draft: 'Draft Answer',
  unknown: 'Needs Review',
};

/**
 * PRODUCT §8 colours: library answers green, generated amber, drafts teal, unanswered red. Green and teal are close,
 * so each type also has its own icon, and a draft is an outlined, dashed badge where an approved answer is filled.
 */
export const ANSWER_TYPE_LOOKS: Record<AnswerType, { className: string; icon: LucideIcon }> = {
  canonical: { className: 'border-transparent bg-emerald-100 text-emerald-800', icon: BadgeCheck },
  generated: { className: 'border-transparent bg-amber-100 text-amber-800', icon: Sparkles },
  draft: { className: 'border-dashed border-teal-500 bg-background text-teal-800', icon: PenLine },
  unknown: { className: 'border-transparent bg-red-100 text-red-800', icon: CircleHelp },
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
  const { className: look, icon: Icon } = ANSWER_TYPE_LOOKS[answerType];
  return (
    <Badge className={cn(look, strong && 'bg-amber-500 text-white', className)}>
      <Icon aria-hidden />
      {ANSWER_TYPE_LABELS[answerType]}
    </Badge>
  );
}
