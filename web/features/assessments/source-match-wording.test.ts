import { describe, expect, it } from 'vitest';
import { CONFIDENCE_MEANING } from '../../components/knowledge/confidence-badge';
import { cardHtml, cardText } from './question-card-text';
import { questionFixture } from './question-fixture';

const manager = ['assessments:run', 'assessments:approve', 'assessments:assign', 'knowledge:create_draft'];

/** A library answer at 84% confidence whose source matches the question at 90%: two figures side by side. */
const answered = questionFixture({
  question: 'Is customer data encrypted at rest?',
  answer: 'Yes. All customer data is encrypted at rest with AES-256.',
  answerType: 'canonical',
  answerOrigin: 'machine',
  confidence: 84,
  status: 'completed',
  reviewState: 'drafted',
  sources: [
    { type: 'library', canonicalAnswerId: 'e1', question: 'Is data encrypted at rest?', score: 0.9, confidence: 90 },
  ],
});

describe("the answer's confidence beside its sources' match", () => {
  it('names the source figure a match, so it does not read as a second confidence', () => {
    const text = cardText(answered, manager);
    expect(text).toContain('Confidence 84%');
    expect(text).toContain('Library · 90% match');
    expect(text).not.toContain('Library (90%)');
  });

  it('explains the confidence figure where it is shown', () => {
    expect(cardHtml(answered, manager)).toContain(`title="${CONFIDENCE_MEANING}"`);
  });
});
