import { describe, expect, it } from 'vitest';
import { ANSWER_TYPE_LOOKS } from '../../components/knowledge/answer-type-badge';
import { BATCH_STATUS_LOOKS } from './components/assessment-status';
import { questionStatusLook } from './components/question-status-icon';

const completed = { status: 'completed' as const, answerOrigin: 'machine' as const };

describe('question status icon: a green check means approved, never "Needs Review"', () => {
  it('a question the engine could not answer shows a red "Needs review" mark, not a check', () => {
    const look = questionStatusLook({ ...completed, answerType: 'unknown', reviewState: 'needs_answer' });
    expect(look.label).toBe('Needs review');
    expect(look.tone).toMatch(/red/);
    expect(look.tone).not.toMatch(/emerald|green/);
  });

  it('an answered question waiting for review is not shown as done', () => {
    for (const reviewState of ['drafted', 'in_review'] as const) {
      const look = questionStatusLook({ ...completed, answerType: 'generated', reviewState });
      expect(look.tone).not.toMatch(/emerald|green/);
    }
  });

  it('only an approved answer carries the green check', () => {
    const look = questionStatusLook({ ...completed, answerType: 'canonical', reviewState: 'approved' });
    expect(look.label).toBe('Approved');
    expect(look.tone).toMatch(/emerald/);
  });

  it('the worker states keep their own marks', () => {
    const base = { answerType: null, answerOrigin: null, reviewState: 'needs_answer' as const };
    expect(questionStatusLook({ ...base, status: 'pending' }).label).toBe('Pending');
    expect(questionStatusLook({ ...base, status: 'processing' }).icon).toBe('spinner');
    expect(questionStatusLook({ ...base, status: 'failed' }).tone).toMatch(/red/);
  });
});

describe('badges tell Draft from Canonical, and Processing from Completed, at a glance', () => {
  it('Draft Answer and Canonical Answer differ in colour family, fill and icon (PRODUCT §8: library green, drafts teal)', () => {
    const canonical = ANSWER_TYPE_LOOKS.canonical;
    const draft = ANSWER_TYPE_LOOKS.draft;
    expect(canonical.className).toMatch(/emerald/);
    expect(draft.className).toMatch(/teal/);
    expect(draft.className).toMatch(/border-dashed/);
    expect(draft.icon).not.toBe(canonical.icon);
  });

  it('every answer type has its own icon', () => {
    const icons = Object.values(ANSWER_TYPE_LOOKS).map((look) => look.icon);
    expect(new Set(icons).size).toBe(icons.length);
  });

  it('Processing is blue with a spinner; Completed green with a check', () => {
    expect(BATCH_STATUS_LOOKS.processing.className).toMatch(/sky|blue/);
    expect(BATCH_STATUS_LOOKS.processing.spin).toBe(true);
    expect(BATCH_STATUS_LOOKS.completed.className).toMatch(/emerald/);
    expect(BATCH_STATUS_LOOKS.completed.icon).not.toBe(BATCH_STATUS_LOOKS.processing.icon);
  });
});
