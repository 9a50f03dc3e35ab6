import { describe, expect, it } from 'vitest';
import { reviewBadge } from './review-badge';

describe('reviewBadge', () => {
  it('shows nothing when no question waits, or before the count has loaded', () => {
    expect(reviewBadge(undefined)).toBeNull();
    expect(reviewBadge({ questions: 0, assessments: 0 })).toBeNull();
  });

  it('counts the questions and says where they wait', () => {
    expect(reviewBadge({ questions: 1, assessments: 1 })).toEqual({
      text: '1',
      label: '1 question waits for your review',
    });
    expect(reviewBadge({ questions: 3, assessments: 1 })).toEqual({
      text: '3',
      label: '3 questions wait for your review',
    });
    expect(reviewBadge({ questions: 5, assessments: 2 })).toEqual({
      text: '5',
      label: '5 questions in 2 assessments wait for your review',
    });
  });

  it('caps the badge at 99+, while the sentence keeps the real count', () => {
    expect(reviewBadge({ questions: 99, assessments: 3 })?.text).toBe('99');
    expect(reviewBadge({ questions: 1250, assessments: 4 })).toEqual({
      text: '99+',
      label: '1,250 questions in 4 assessments wait for your review',
    });
  });
});
