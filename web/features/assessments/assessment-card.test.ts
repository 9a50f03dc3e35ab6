import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { BatchView } from '../../../common/schemas/assessments';
import { AssessmentCard } from './components/assessment-card';

/** The assessment from the walkthrough: every question processed, most with no answer yet. */
const batch: BatchView = {
  id: 'b',
  name: 'HECVAT Lite',
  description: null,
  status: 'completed',
  error: null,
  totalQuestions: 74,
  processedQuestions: 74,
  failedQuestions: 0,
  needsReviewQuestions: 59,
  createdAt: '2026-11-28T09:00:00.000Z',
  completedAt: '2026-11-28T09:01:00.000Z',
  metadata: { sourceFile: 'hecvat-lite.xlsx', customerName: null, assessmentType: null },
  sourceFormat: 'xlsx',
  canFillOriginal: true,
  originalExport: 'xlsx',
  sessionId: null,
  prefilledAnswers: 'keep',
  dueOn: null,
  overdue: false,
  reviewCounts: { needs_answer: 59, drafted: 15, in_review: 0, approved: 0, not_applicable: 0 },
};

function cardText(view: BatchView): string {
  const html = renderToStaticMarkup(
    createElement(
      MemoryRouter,
      null,
      createElement(AssessmentCard, {
        batch: view,
        canDelete: false,
        exporting: false,
        handlers: { onExport: () => undefined, onDelete: () => undefined },
      }),
    ),
  );
  return html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe("an assessment's card says where review stands, not only that the worker is done", () => {
  it('counts the questions that still need an answer beside the processed ones', () => {
    const text = cardText(batch);
    expect(text).toContain('74 / 74 questions');
    expect(text).toContain('Needs answer 59');
    expect(text).toContain('Drafted 15');
    expect(text).not.toContain('reviewed');
  });
});
