import type { ReviewQueue } from '../../../common/schemas/assessments';
import { formatNumber } from '../../lib/format';

/** Above this the badge says "99+": it asks for attention, the list says how much. */
const BADGE_MAX = 99;

const plural = (n: number, one: string) => `${formatNumber(n)} ${one}${n === 1 ? '' : 's'}`;

/**
 * What the Bulk Assessments item shows a reviewer: the count of questions waiting for review, and the sentence a
 * screen reader and the tooltip give. Nothing when none wait (or the count is not loaded), so a quiet sidebar stays
 * quiet.
 */
export function reviewBadge(queue: ReviewQueue | undefined): { text: string; label: string } | null {
  if (!queue || queue.questions <= 0) return null;
  const text = queue.questions > BADGE_MAX ? `${BADGE_MAX}+` : formatNumber(queue.questions);
  const where = queue.assessments > 1 ? ` in ${plural(queue.assessments, 'assessment')}` : '';
  const verb = queue.questions === 1 ? 'waits' : 'wait';
  return { text, label: `${plural(queue.questions, 'question')}${where} ${verb} for your review` };
}
