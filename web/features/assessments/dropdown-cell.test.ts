import { describe, expect, it } from 'vitest';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import { questionFixture } from './question-fixture';
import { cardHtml, cardText } from './question-card-text';

const manager = ['assessments:read', 'assessments:run', 'assessments:approve', 'assessments:assign'];
const viewer = ['assessments:read'];

function answered(overrides: Partial<AssessmentQuestionView> = {}): AssessmentQuestionView {
  return questionFixture({
    question: 'Is customer data encrypted at rest?',
    answer: 'Yes. Every volume is encrypted with AES-256.',
    answerType: 'canonical',
    confidence: 93,
    status: 'completed',
    answerOrigin: 'machine',
    reviewState: 'drafted',
    allowedValues: ['Yes', 'No', 'N/A'],
    dropdownCell: { allowed: ['Yes', 'No', 'N/A'], value: 'Yes', picked: false, reason: null },
    ...overrides,
  });
}

describe("the card shows what the customer's dropdown cell gets", () => {
  it('shows the value the export writes and that it was chosen from the answer', () => {
    const text = cardText(answered(), viewer);
    expect(text).toContain("Customer's dropdown Yes Chosen from the answer.");
  });

  it('says why the cell stays empty when the answer does not decide it', () => {
    const text = cardText(
      answered({
        answer: 'Access is role-based and reviewed every quarter.',
        dropdownCell: {
          allowed: ['Yes', 'No', 'N/A'],
          value: null,
          picked: false,
          reason: 'The answer does not begin with Yes, No or N/A, so the dropdown is left empty.',
        },
      }),
      viewer,
    );
    expect(text).toContain("Customer's dropdown Left empty The answer does not begin with Yes, No or N/A");
  });

  it("offers the cell's own values to someone who may answer, and a way back to the answer's choice once picked", () => {
    const picked = answered({
      dropdownCell: { allowed: ['Yes', 'No', 'N/A'], value: 'No', picked: true, reason: null },
    });
    const html = cardHtml(picked, manager);
    expect(html).toContain('aria-label="Value for the customer&#x27;s dropdown"');
    const text = cardText(picked, manager);
    expect(text).toContain('Picked by a person.');
    expect(text).toContain('Follow the answer');
    // A viewer sees the value, with no control.
    expect(cardText(picked, viewer)).not.toContain('Follow the answer');
  });

  it('is not shown for a free-text answer cell', () => {
    expect(cardText(answered({ allowedValues: null, dropdownCell: null }), manager)).not.toContain(
      "Customer's dropdown",
    );
  });
});
