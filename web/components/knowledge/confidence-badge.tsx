import { cn } from '../../lib/cn';
import { formatPercent } from '../../lib/format';

/** PRODUCT §8 confidence colours: 80 or more green, 60 to 79 yellow, below 60 red. */
export function confidenceTone(confidence: number): string {
  if (confidence >= 80) return 'bg-emerald-100 text-emerald-800';
  if (confidence >= 60) return 'bg-yellow-100 text-yellow-800';
  return 'bg-red-100 text-red-800';
}

/** What the figure means, for its tooltip: the sources beside it carry a different figure, their match. */
export const CONFIDENCE_MEANING = 'How likely this answer is to be right, as Verity judged it';

/** 'Confidence 92%' in the colour of its band. */
export function ConfidenceBadge({ confidence, className }: { confidence: number; className?: string }) {
  return (
    <span
      title={CONFIDENCE_MEANING}
      className={cn(
        'inline-flex w-fit shrink-0 items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap tabular-nums',
        confidenceTone(confidence),
        className,
      )}
    >
      Confidence {formatPercent(confidence)}
    </span>
  );
}
