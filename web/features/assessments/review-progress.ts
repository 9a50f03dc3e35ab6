import { REVIEW_STATE_LABELS, REVIEW_STATES, type ReviewState } from '../../../common/review-states';
import type { ReviewCounts } from '../../../common/schemas/assessments';
import { formatNumber } from '../../lib/format';

/**
 * The review states a list card shows, in the review's own order and words (the header's counts use the same): the
 * states some question is in, so "Completed" (the worker's word) is never read as "done" while questions still
 * need an answer from a person.
 */
export function reviewStages(counts: ReviewCounts): { state: ReviewState; label: string; count: number }[] {
  return REVIEW_STATES.filter((state) => counts[state] > 0).map((state) => ({
    state,
    label: REVIEW_STATE_LABELS[state],
    count: counts[state],
  }));
}

/**
 * One sentence on where review stands once Verity has answered what it could: how many questions still need a
 * person's answer and how many are approved. Null while nothing is there to say (no questions).
 */
export function reviewSentence(counts: ReviewCounts, total: number): string | null {
  if (total === 0) return null;
  const done = counts.approved + counts.not_applicable;
  if (done === total) return `Every question is approved or marked not applicable.`;
  const need = counts.needs_answer;
  const toReview = counts.drafted + counts.in_review;
  const parts = [
    need > 0
      ? `${formatNumber(need)} of ${formatNumber(total)} ${need === 1 ? 'needs' : 'need'} an answer from a person`
      : null,
    toReview > 0 ? `${formatNumber(toReview)} ${toReview === 1 ? 'answer waits' : 'answers wait'} for review` : null,
    `${formatNumber(done)} ${done === 1 ? 'is' : 'are'} approved or not applicable`,
  ].filter((part): part is string => part !== null);
  return `${parts.join('; ')}.`;
}
