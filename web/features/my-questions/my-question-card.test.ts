import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import { questionFixture } from '../assessments/question-fixture';
import { MyQuestionCard } from './components/my-question-card';

/** The card as My questions renders it, as text (tags removed). */
function cardText(question: AssessmentQuestionView): string {
  const card = createElement(MyQuestionCard, { batchId: 'b', question, permissions: ['assessments:run'] });
  const html = renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, card));
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');
}

describe('a question of mine marked not applicable', () => {
  it('says it does not apply and what the export writes, instead of "No answer yet"', () => {
    const text = cardText(
      questionFixture({
        answer: 'No approved answer or document in this workspace covers this question yet.',
        answerType: 'unknown',
        status: 'completed',
        answerOrigin: 'machine',
        reviewState: 'not_applicable',
      }),
    );
    expect(text).not.toContain('No answer yet');
    expect(text).not.toMatch(/needs review/i);
    expect(text).toContain('Not applicable');
    expect(text).toContain('"N/A"');
    // Done with: nothing to write or submit until a reviewer reopens it.
    expect(text).not.toContain('Write answer');
  });
});
