import { describe, expect, it } from 'vitest';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import { questionStatusLook } from './components/question-status-icon';
import { countQuestions, filterQuestions, NO_FILTER, searchTextOf } from './question-filter';
import { questionFixture } from './question-fixture';
import { cardText as renderedText } from './question-card-text';

// The engine's words when nothing covers a question (server/engine/answer.ts), stored as the answer's text.
const NEEDS_REVIEW_SENTENCE =
  'No approved answer or document in this workspace covers this question yet. It needs review by someone who knows the answer.';

const manager = ['assessments:run', 'assessments:approve', 'assessments:assign', 'knowledge:create_draft'];
const cardText = (question: AssessmentQuestionView) => renderedText(question, manager);

/** A question the engine found nothing for ('Needs Review'), in the given review state. */
function unanswered(overrides: Partial<AssessmentQuestionView> = {}): AssessmentQuestionView {
  return questionFixture({
    question: 'Do you operate delivery drones over customer sites?',
    answer: NEEDS_REVIEW_SENTENCE,
    answerType: 'unknown',
    confidence: 0,
    status: 'completed',
    answerOrigin: 'machine',
    ...overrides,
  });
}

describe('a question marked not applicable', () => {
  it('shows "Not applicable" and what the export writes, never the red Needs Review badge or its sentence', () => {
    const question = unanswered({ reviewState: 'not_applicable' });
    const text = cardText(question);
    expect(text).not.toMatch(/needs review/i);
    expect(text).not.toContain(NEEDS_REVIEW_SENTENCE);
    expect(text).toContain('Not applicable');
    expect(text).toContain('"N/A"');
    expect(questionStatusLook(question)).toMatchObject({ label: 'Not applicable', tone: 'text-muted-foreground' });
    expect(text).toContain('Reopen');
  });

  it('still shows Needs Review on a question that needs an answer (the badge is only hidden where it is wrong)', () => {
    const text = cardText(unanswered({ reviewState: 'needs_answer' }));
    expect(text).toContain('Needs Review');
    expect(text).toContain(NEEDS_REVIEW_SENTENCE);
  });

  it('keeps an earlier answer visible, labelled as coming back when reopened, without its type badge', () => {
    const text = cardText(
      unanswered({
        reviewState: 'not_applicable',
        answer: 'No. We do not operate drones.',
        answerType: 'generated',
        confidence: 72,
      }),
    );
    expect(text).toContain('Not applicable');
    expect(text).toContain('No. We do not operate drones.');
    expect(text).toMatch(/back if reopened/i);
    expect(text).not.toContain('Generated Answer');
  });

  it('is not counted or listed under the "Needs Review" answer-type filter', () => {
    const questions = [unanswered({ id: 'open' }), unanswered({ id: 'na', reviewState: 'not_applicable' })];
    expect(countQuestions(questions).byType.unknown).toBe(1);
    const listed = filterQuestions(questions, questions.map(searchTextOf), { ...NO_FILTER, answerType: 'unknown' });
    expect(listed.map((q) => q.id)).toEqual(['open']);
  });
});
