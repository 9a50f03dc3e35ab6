import { describe, expect, it } from 'vitest';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import { questionFixture } from './question-fixture';
import {
  NO_FILTER,
  countQuestions,
  filterQuestions,
  isAnswerTypeFilter,
  isFiltered,
  isReviewFilter,
  isStatusFilter,
  searchTextOf,
} from './question-filter';

const question = questionFixture;

const questions = [
  question({
    id: 'a',
    orderIndex: 1,
    question: 'Do you encrypt data at rest?',
    answer: 'Yes, with AES-256.',
    answerType: 'canonical',
    status: 'completed',
    controlId: 'EKM-03',
    section: 'Encryption',
    answerOrigin: 'machine',
    reviewState: 'drafted',
  }),
  question({ id: 'b', orderIndex: 2, question: 'Do you run penetration tests?', status: 'pending' }),
  question({
    id: 'c',
    orderIndex: 12,
    question: 'Is MFA enforced for admins?',
    answer: 'Yes.',
    answerType: 'generated',
    status: 'completed',
    answerOrigin: 'machine',
    reviewState: 'approved',
  }),
  question({ id: 'd', orderIndex: 4, question: 'Describe backups', status: 'failed', answerType: 'unknown' }),
  question({
    id: 'e',
    orderIndex: 5,
    question: 'Do you have a SOC 2 report?',
    answer: 'Yes, type II, renewed every year.',
    answerType: 'draft',
    status: 'completed',
    answerOrigin: 'person',
    reviewState: 'in_review',
  }),
];
const texts = questions.map(searchTextOf);
const ids = (list: AssessmentQuestionView[]) => list.map((q) => q.id);

describe('filterQuestions', () => {
  it('lets every question through with no filter, in order', () => {
    expect(ids(filterQuestions(questions, texts, NO_FILTER))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('keeps one status, one answer type or one review state', () => {
    expect(ids(filterQuestions(questions, texts, { ...NO_FILTER, status: 'completed' }))).toEqual(['a', 'c', 'e']);
    expect(ids(filterQuestions(questions, texts, { ...NO_FILTER, answerType: 'generated' }))).toEqual(['c']);
    expect(ids(filterQuestions(questions, texts, { ...NO_FILTER, reviewState: 'approved' }))).toEqual(['c']);
    expect(ids(filterQuestions(questions, texts, { ...NO_FILTER, reviewState: 'needs_answer' }))).toEqual(['b', 'd']);
    expect(
      ids(filterQuestions(questions, texts, { ...NO_FILTER, status: 'completed', reviewState: 'in_review' })),
    ).toEqual(['e']);
    expect(
      ids(filterQuestions(questions, texts, { ...NO_FILTER, status: 'pending', answerType: 'generated' })),
    ).toEqual([]);
  });

  it('says whether any filter hides questions', () => {
    expect(isFiltered(NO_FILTER)).toBe(false);
    expect(isFiltered({ ...NO_FILTER, search: '   ' })).toBe(false);
    expect(isFiltered({ ...NO_FILTER, search: 'mfa' })).toBe(true);
    expect(isFiltered({ ...NO_FILTER, reviewState: 'drafted' })).toBe(true);
  });

  it('searches question, answer, control id, section and #number, every word, in any case', () => {
    const search = (text: string) => ids(filterQuestions(questions, texts, { ...NO_FILTER, search: text }));
    expect(search('ENCRYPT')).toEqual(['a']);
    expect(search('aes-256')).toEqual(['a']);
    expect(search('ekm-03')).toEqual(['a']);
    expect(search('encryption')).toEqual(['a']);
    expect(search('#12')).toEqual(['c']);
    expect(search('  do   you ')).toEqual(['a', 'b', 'e']);
    expect(search('do mfa')).toEqual([]);
  });
});

describe('countQuestions', () => {
  it('counts each status, answer type and review state, zero for the ones not present', () => {
    const { byStatus, byType, byReview } = countQuestions(questions);
    expect(byStatus).toEqual({ pending: 1, processing: 0, completed: 3, failed: 1 });
    expect(byType).toEqual({ canonical: 1, generated: 1, draft: 1, unknown: 1 });
    expect(byReview).toEqual({ needs_answer: 2, drafted: 1, in_review: 1, approved: 1, not_applicable: 0 });
  });
});

describe('filter values from the URL', () => {
  it('accepts only known statuses, review states and answer types', () => {
    // Approved is a review state now, not the worker's status.
    expect(isStatusFilter('approved')).toBe(false);
    expect(isStatusFilter('completed')).toBe(true);
    expect(isStatusFilter('all')).toBe(true);
    expect(isReviewFilter('approved')).toBe(true);
    expect(isReviewFilter('not_applicable')).toBe(true);
    expect(isReviewFilter('all')).toBe(true);
    expect(isReviewFilter('done')).toBe(false);
    expect(isStatusFilter('deleted')).toBe(false);
    expect(isAnswerTypeFilter('canonical')).toBe(true);
    expect(isAnswerTypeFilter('all')).toBe(true);
    expect(isAnswerTypeFilter('made-up')).toBe(false);
  });
});
