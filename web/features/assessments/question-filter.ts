import { ANSWER_TYPES, type AnswerType } from '../../../common/schemas/qa';
import {
  QUESTION_STATUSES,
  type AssessmentQuestionView,
  type QuestionStatus,
} from '../../../common/schemas/assessments';

/** The specification's status filter (all, completed, processing, pending, failed) plus approved. */
export const STATUS_FILTERS = ['all', 'completed', 'approved', 'processing', 'pending', 'failed'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export type AnswerTypeFilter = 'all' | AnswerType;

export const STATUS_LABELS: Record<StatusFilter, string> = {
  all: 'All statuses',
  completed: 'Completed',
  approved: 'Approved',
  processing: 'Processing',
  pending: 'Pending',
  failed: 'Failed',
};

export interface QuestionFilter {
  search: string;
  status: StatusFilter;
  answerType: AnswerTypeFilter;
}

export const NO_FILTER: QuestionFilter = { search: '', status: 'all', answerType: 'all' };

export function isStatusFilter(value: string): value is StatusFilter {
  return (STATUS_FILTERS as readonly string[]).includes(value);
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

/** The questions the filter lets through, in their order; `texts` holds searchTextOf for each question. */
export function filterQuestions(
  questions: readonly AssessmentQuestionView[],
  texts: readonly string[],
  filter: QuestionFilter,
): AssessmentQuestionView[] {
  const terms = filter.search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return questions.filter((question, index) => {
    if (filter.status !== 'all' && question.status !== filter.status) return false;
    if (filter.answerType !== 'all' && question.answerType !== filter.answerType) return false;
    const text = texts[index] ?? '';
    return terms.every((term) => text.includes(term));
  });
}

/** How many questions are in each status and of each answer type, for the filter's options. */
export function countQuestions(questions: readonly AssessmentQuestionView[]) {
  const byStatus = Object.fromEntries(QUESTION_STATUSES.map((s) => [s, 0])) as Record<QuestionStatus, number>;
  const byType = Object.fromEntries(ANSWER_TYPES.map((t) => [t, 0])) as Record<AnswerType, number>;
  for (const question of questions) {
    byStatus[question.status] += 1;
    if (question.answerType) byType[question.answerType] += 1;
  }
  return { byStatus, byType };
}
