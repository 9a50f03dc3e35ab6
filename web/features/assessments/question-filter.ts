import { ANSWER_TYPES, type AnswerType } from '../../../common/schemas/qa';
import { REVIEW_STATES, type ReviewState } from '../../../common/review-states';
import {
  QUESTION_STATUSES,
  type AssessmentQuestionView,
  type QuestionStatus,
} from '../../../common/schemas/assessments';

/** The specification's status filter: the worker's progress (all, completed, processing, pending, failed). */
export const STATUS_FILTERS = ['all', 'completed', 'processing', 'pending', 'failed'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export type AnswerTypeFilter = 'all' | AnswerType;
/** Where the answer stands in review (needs answer, drafted, in review, approved, not applicable). */
export type ReviewFilter = 'all' | ReviewState;

export const STATUS_LABELS: Record<StatusFilter, string> = {
  all: 'All statuses',
  completed: 'Completed',
  processing: 'Processing',
  pending: 'Pending',
  failed: 'Failed',
};

export interface QuestionFilter {
  search: string;
  status: StatusFilter;
  answerType: AnswerTypeFilter;
  reviewState: ReviewFilter;
}

export const NO_FILTER: QuestionFilter = { search: '', status: 'all', answerType: 'all', reviewState: 'all' };

/** Some filter hides questions. */
export function isFiltered(filter: QuestionFilter): boolean {
  return (
    filter.search.trim() !== '' ||
    filter.status !== 'all' ||
    filter.answerType !== 'all' ||
    filter.reviewState !== 'all'
  );
}

export function isStatusFilter(value: string): value is StatusFilter {
  return (STATUS_FILTERS as readonly string[]).includes(value);
}

export function isReviewFilter(value: string): value is ReviewFilter {
  return value === 'all' || (REVIEW_STATES as readonly string[]).includes(value);
}

export function isAnswerTypeFilter(value: string): value is AnswerTypeFilter {
  return value === 'all' || (ANSWER_TYPES as readonly string[]).includes(value);
}

/** The text a search looks through, lower-cased once per question rather than once per keystroke. */
export function searchTextOf(question: AssessmentQuestionView): string {
  return [
    question.question,
    question.answer ?? '',
    question.controlId ?? '',
    question.section ?? '',
    `#${String(question.orderIndex)}`,
  ]
    .join('\n')
    .toLowerCase();
}

/**
 * The answer type a question is filtered and counted by: one marked not applicable is not 'Needs Review' any more,
 * though the engine found nothing for it.
 */
function shownAnswerType(question: AssessmentQuestionView): AnswerType | null {
  return question.reviewState === 'not_applicable' && question.answerType === 'unknown' ? null : question.answerType;
}

/** The questions the filter lets through, in their order; `texts` holds searchTextOf for each question. */
export function filterQuestions(
  questions: readonly AssessmentQuestionView[],
  texts: readonly string[],
  filter: QuestionFilter,
): AssessmentQuestionView[] {
  const terms = filter.search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return questions.filter((question, index) => {
    if (filter.status !== 'all' && question.status !== filter.status) return false;
    if (filter.answerType !== 'all' && shownAnswerType(question) !== filter.answerType) return false;
    if (filter.reviewState !== 'all' && question.reviewState !== filter.reviewState) return false;
    const text = texts[index] ?? '';
    return terms.every((term) => text.includes(term));
  });
}

/** How many questions are in each status, of each answer type and in each review state, for the filter's options. */
export function countQuestions(questions: readonly AssessmentQuestionView[]) {
  const byStatus = Object.fromEntries(QUESTION_STATUSES.map((s) => [s, 0])) as Record<QuestionStatus, number>;
  const byType = Object.fromEntries(ANSWER_TYPES.map((t) => [t, 0])) as Record<AnswerType, number>;
  const byReview = Object.fromEntries(REVIEW_STATES.map((r) => [r, 0])) as Record<ReviewState, number>;
  for (const question of questions) {
    byStatus[question.status] += 1;
    byReview[question.reviewState] += 1;
    const answerType = shownAnswerType(question);
    if (answerType) byType[answerType] += 1;
  }
  return { byStatus, byType, byReview };
}
export type QuestionCounts = ReturnType<typeof countQuestions>;
