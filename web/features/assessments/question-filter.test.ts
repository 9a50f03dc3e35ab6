import { describe, expect, it } from 'vitest';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import {
  NO_FILTER,
  countQuestions,
  filterQuestions,
  isAnswerTypeFilter,
  isStatusFilter,
  searchTextOf,
} from './question-filter';

function question(overrides: Partial<AssessmentQuestionView>): AssessmentQuestionView {
  return {
    id: 'q',
    orderIndex: 1,
    question: 'Question',
    answer: null,
    answerType: null,
    confidence: null,
    status: 'pending',
    errorMessage: null,
    sources: [],
    sheet: null,
    row: null,
    controlId: null,
    section: null,
    allowedValues: null,
    existingAnswer: null,
    disagreesWithCustomer: false,
    edited: false,
    reviewedAt: null,
    sourceChanged: false,
    conflictsWith: [],
    ...overrides,
  };
}

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
  }),
  question({ id: 'b', orderIndex: 2, question: 'Do you run penetration tests?', status: 'pending' }),
  question({
    id: 'c',
    orderIndex: 12,
    question: 'Is MFA enforced for admins?',
    answer: 'Yes.',
    answerType: 'generated',
    status: 'approved',
  }),
  question({ id: 'd', orderIndex: 4, question: 'Describe backups', status: 'failed', answerType: 'unknown' }),
];
const texts = questions.map(searchTextOf);
const ids = (list: AssessmentQuestionView[]) => list.map((q) => q.id);

describe('filterQuestions', () => {
  it('lets every question through with no filter, in order', () => {
    expect(ids(filterQuestions(questions, texts, NO_FILTER))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps one status or one answer type', () => {
    expect(ids(filterQuestions(questions, texts, { ...NO_FILTER, status: 'approved' }))).toEqual(['c']);
    expect(ids(filterQuestions(questions, texts, { ...NO_FILTER, answerType: 'generated' }))).toEqual(['c']);
    expect(
      ids(filterQuestions(questions, texts, { ...NO_FILTER, status: 'completed', answerType: 'generated' })),
    ).toEqual([]);
  });

  it('searches question, answer, control id, section and #number, every word, in any case', () => {
    const search = (text: string) => ids(filterQuestions(questions, texts, { ...NO_FILTER, search: text }));
    expect(search('ENCRYPT')).toEqual(['a']);
    expect(search('aes-256')).toEqual(['a']);
    expect(search('ekm-03')).toEqual(['a']);
    expect(search('encryption')).toEqual(['a']);
    expect(search('#12')).toEqual(['c']);
    expect(search('  do   you ')).toEqual(['a', 'b']);
    expect(search('do mfa')).toEqual([]);
  });
});

describe('countQuestions', () => {
  it('counts each status and each answer type, zero for the ones not present', () => {
    const { byStatus, byType } = countQuestions(questions);
    expect(byStatus).toEqual({ pending: 1, processing: 0, completed: 1, failed: 1, approved: 1 });
    expect(byType).toEqual({ canonical: 1, generated: 1, draft: 0, unknown: 1 });
  });
});

describe('filter values from the URL', () => {
  it('accepts only known statuses and answer types', () => {
    expect(isStatusFilter('approved')).toBe(true);
    expect(isStatusFilter('all')).toBe(true);
    expect(isStatusFilter('deleted')).toBe(false);
    expect(isAnswerTypeFilter('canonical')).toBe(true);
    expect(isAnswerTypeFilter('all')).toBe(true);
    expect(isAnswerTypeFilter('made-up')).toBe(false);
  });
});
