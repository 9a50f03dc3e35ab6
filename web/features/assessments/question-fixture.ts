import type { AssessmentQuestionView } from '../../../common/schemas/assessments';

/** A question as the server presents it, for the web unit tests: a pending one unless told otherwise. */
export function questionFixture(overrides: Partial<AssessmentQuestionView> = {}): AssessmentQuestionView {
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
    dropdownCell: null,
    existingAnswer: null,
    disagreesWithCustomer: false,
    edited: false,
    answerOrigin: null,
    author: null,
    answeredAt: null,
    reviewState: 'needs_answer',
    reviewedAt: null,
    reviewedBy: null,
    assignee: null,
    dueOn: null,
    overdue: false,
    staleSource: false,
    savedToLibrary: null,
    sourceChanged: false,
    conflictsWith: [],
    ...overrides,
  };
}
