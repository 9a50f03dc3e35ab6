import { BadgeCheck, CalendarCheck, CalendarClock, Gauge, UserRound } from 'lucide-react';
import { LIBRARY_DISPLAY_CONFIDENCE } from '../../../../common/constants';
import type { CanonicalAnswerView } from '../../../../common/schemas/knowledge';
import { cn } from '../../../lib/cn';
import { formatDate } from '../../../lib/format';

/** PRODUCT: 'Confidence: N%', 90 when the entry has none (entries typed into the library form). */
export function displayConfidence(answer: Pick<CanonicalAnswerView, 'confidence'>): number {
  return answer.confidence ?? LIBRARY_DISPLAY_CONFIDENCE;
}

/** The small facts under an entry: confidence, updated, last verified, when to verify again, owner. */
export function AnswerMeta({ answer, className }: { answer: CanonicalAnswerView; className?: string }) {
  return (
    <ul className={cn('flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground [&_svg]:size-3.5', className)}>
      <li className="flex items-center gap-1">
        <Gauge aria-hidden />
        Confidence: {displayConfidence(answer)}%
      </li>
      <li className="flex items-center gap-1">
        <CalendarClock aria-hidden />
        Updated {formatDate(answer.updatedAt)}
      </li>
      <li className="flex items-center gap-1">
        <BadgeCheck aria-hidden />
        {answer.lastVerifiedAt ? `Verified ${formatDate(answer.lastVerifiedAt)}` : 'Never verified'}
      </li>
      {answer.verifyBy && (
        <li className={cn('flex items-center gap-1', answer.needsReverification && 'font-medium text-amber-800')}>
          <CalendarCheck aria-hidden />
          {answer.needsReverification ? 'Was due' : 'Verify by'} {formatDate(answer.verifyBy)}
        </li>
      )}
      <li className="flex items-center gap-1">
        <UserRound aria-hidden />
        {answer.owner ? `Owner: ${answer.owner.username}` : 'No owner'}
      </li>
    </ul>
  );
}
