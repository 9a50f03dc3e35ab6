import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import { QuestionCard } from './components/question-card';
import type { QuestionHandlers } from './use-question-actions';

const ignore = () => undefined;

/** Handlers that do nothing, for rendering a card in the web unit tests. */
export const NO_HANDLERS: QuestionHandlers = {
  onSave: ignore,
  onReview: ignore,
  onRegenerate: ignore,
  onSaveToLibrary: ignore,
  onPickChoice: ignore,
  onAssign: ignore,
  onToggleSelected: ignore,
  onJumpTo: ignore,
};

/** The review card as the assessment page renders it for a user with `permissions`, as HTML. */
export function cardHtml(question: AssessmentQuestionView, permissions: readonly string[]): string {
  // In a router: a card's sources are links.
  return renderToStaticMarkup(
    createElement(
      MemoryRouter,
      null,
      createElement(QuestionCard, {
        batchId: 'batch-1',
        question,
        showSheet: false,
        permissions,
        selectable: true,
        selected: false,
        busy: null,
        highlighted: false,
        handlers: NO_HANDLERS,
      }),
    ),
  );
}

/** The same card as its visible text: tags removed, entities of quotes decoded, white space collapsed. */
export function cardText(question: AssessmentQuestionView, permissions: readonly string[]): string {
  return cardHtml(question, permissions)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');
}
