import { describe, expect, it } from 'vitest';
import { reviewSentence, reviewStages } from './review-progress';

const counts = (c: Partial<Record<string, number>>) => ({
  needs_answer: 0,
  drafted: 0,
  in_review: 0,
  approved: 0,
  not_applicable: 0,
  ...c,
});

describe('where review stands, in the review states own words', () => {
  it('lists the states some question is in, in review order', () => {
    expect(reviewStages(counts({ needs_answer: 59, drafted: 12, approved: 3 }))).toEqual([
      { state: 'needs_answer', label: 'Needs answer', count: 59 },
      { state: 'drafted', label: 'Drafted', count: 12 },
      { state: 'approved', label: 'Approved', count: 3 },
    ]);
  });

  it('says how many still need a person, rather than calling a processed assessment done', () => {
    expect(reviewSentence(counts({ needs_answer: 59, drafted: 15 }), 74)).toBe(
      '59 of 74 need an answer from a person; 15 answers wait for review; 0 are approved or not applicable.',
    );
    expect(reviewSentence(counts({ needs_answer: 1, in_review: 1, approved: 1 }), 3)).toBe(
      '1 of 3 needs an answer from a person; 1 answer waits for review; 1 is approved or not applicable.',
    );
    expect(reviewSentence(counts({ approved: 70, not_applicable: 4 }), 74)).toBe(
      'Every question is approved or marked not applicable.',
    );
    expect(reviewSentence(counts({}), 0)).toBeNull();
  });
});
