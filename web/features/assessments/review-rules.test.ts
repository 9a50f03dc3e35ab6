import { describe, expect, it } from 'vitest';
import { allowedActions, can } from '../../../common/policies';
import { REVIEW_ACTION_NAMES, REVIEW_ACTIONS, REVIEW_STATES, type ReviewState } from '../../../common/review-states';
import type { StoredRole } from '../../../common/roles';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import { questionFixture } from './question-fixture';
import {
  acceptableAnswers,
  answersSeen,
  assigneeCandidates,
  citeChoices,
  currentCite,
  exportSummary,
  hasAnswer,
  libraryButtonFor,
  parseDay,
  questionOffer,
  reviewActionLabel,
  reviewActionsFor,
  sectionsOf,
} from './review-rules';

const ROLES: StoredRole[] = ['viewer', 'contributor', 'manager', 'admin', 'super_admin'];
const permissionsOf = (role: StoredRole) => allowedActions(role);

/** The engine's answer, drafted and waiting for review unless told otherwise. */
const machine = (overrides: Partial<AssessmentQuestionView> = {}) =>
  questionFixture({
    answer: 'Yes, with AES-256.',
    answerType: 'generated',
    answerOrigin: 'machine',
    confidence: 92,
    status: 'completed',
    reviewState: 'drafted',
    ...overrides,
  });

const person = (overrides: Partial<AssessmentQuestionView> = {}) =>
  questionFixture({
    answer: 'We delete customer data within 30 days.',
    answerType: 'draft',
    answerOrigin: 'person',
    author: { id: 'u1', username: 'alice' },
    status: 'completed',
    reviewState: 'drafted',
    ...overrides,
  });

const unanswered = (overrides: Partial<AssessmentQuestionView> = {}) =>
  questionFixture({
    answer: 'No answer was found in the library or the documents.',
    answerType: 'unknown',
    answerOrigin: 'machine',
    confidence: 0,
    status: 'completed',
    reviewState: 'needs_answer',
    ...overrides,
  });

describe('what counts as an answer', () => {
  it("is a person's answer or the engine's when it found one, never while the worker holds the question", () => {
    expect(hasAnswer(machine())).toBe(true);
    expect(hasAnswer(person())).toBe(true);
    expect(hasAnswer(unanswered())).toBe(false);
    expect(hasAnswer(machine({ status: 'processing' }))).toBe(false);
    expect(hasAnswer(questionFixture())).toBe(false);
  });
});

describe('review steps offered', () => {
  it('follow the state machine and the policy table of common/ for every role and state', () => {
    for (const role of ROLES) {
      for (const state of REVIEW_STATES) {
        for (const question of [machine({ reviewState: state }), unanswered({ reviewState: state })]) {
          const offered = reviewActionsFor(question, permissionsOf(role));
          for (const name of REVIEW_ACTION_NAMES) {
            const rule = REVIEW_ACTIONS[name];
            const allowed =
              (rule.from as readonly ReviewState[]).includes(state) &&
              can(role, rule.action) &&
              (!rule.needsAnswer || hasAnswer(question));
            // Submitting is redundant where the same user may approve.
            const expected = allowed && !(name === 'submit' && offered.includes('approve'));
            expect(offered.includes(name), `${role} ${state} ${name}`).toBe(expected);
          }
        }
      }
    }
  });

  it('let a contributor submit a draft and a manager approve, send back or set it aside', () => {
    expect(reviewActionsFor(machine(), permissionsOf('contributor'))).toEqual(['submit']);
    expect(reviewActionsFor(machine(), permissionsOf('manager'))).toEqual(['approve', 'not_applicable']);
    expect(reviewActionsFor(machine({ reviewState: 'in_review' }), permissionsOf('manager'))).toEqual([
      'approve',
      'return',
      'not_applicable',
    ]);
    expect(reviewActionsFor(machine({ reviewState: 'approved' }), permissionsOf('admin'))).toEqual([
      'return',
      'not_applicable',
    ]);
    expect(reviewActionsFor(machine({ reviewState: 'not_applicable' }), permissionsOf('manager'))).toEqual(['reopen']);
  });

  it('offer nothing that needs an answer to a question without one, and nothing to a viewer', () => {
    expect(reviewActionsFor(unanswered(), permissionsOf('manager'))).toEqual(['not_applicable']);
    expect(reviewActionsFor(unanswered({ reviewState: 'drafted' }), permissionsOf('contributor'))).toEqual([]);
    for (const state of REVIEW_STATES) {
      expect(reviewActionsFor(machine({ reviewState: state }), permissionsOf('viewer'))).toEqual([]);
    }
  });

  it('offer nothing while the worker holds the question', () => {
    expect(reviewActionsFor(machine({ status: 'pending' }), permissionsOf('admin'))).toEqual([]);
    expect(questionOffer(machine({ status: 'processing' }), permissionsOf('admin'))).toEqual({
      review: [],
      edit: null,
      regenerate: false,
      assign: false,
      library: null,
    });
  });

  it('name sending back an approved answer what it is: withdrawing the approval', () => {
    expect(reviewActionLabel('return', 'in_review')).toBe('Send back');
    expect(reviewActionLabel('return', 'approved')).toBe('Withdraw approval');
    expect(reviewActionLabel('not_applicable', 'drafted')).toBe('Mark not applicable');
  });
});

describe('the other actions of a card', () => {
  it('edit an answer, write a missing one, and leave a question marked not applicable alone until reopened', () => {
    const contributor = permissionsOf('contributor');
    expect(questionOffer(machine(), contributor).edit).toBe('Edit');
    expect(questionOffer(unanswered(), contributor).edit).toBe('Write answer');
    expect(questionOffer(machine({ reviewState: 'not_applicable' }), contributor)).toMatchObject({
      edit: null,
      regenerate: false,
    });
    expect(questionOffer(machine(), permissionsOf('viewer'))).toMatchObject({ edit: null, regenerate: false });
  });

  it('let only those who may assign assign', () => {
    expect(questionOffer(machine(), permissionsOf('contributor')).assign).toBe(false);
    expect(questionOffer(machine(), permissionsOf('manager')).assign).toBe(true);
  });
});

describe('save to library', () => {
  const contributor = permissionsOf('contributor');

  it("is offered for a person's answer and a generated one, not for a library answer as it stands", () => {
    expect(libraryButtonFor(person(), contributor)).toBe('offer');
    expect(libraryButtonFor(machine(), contributor)).toBe('offer');
    expect(libraryButtonFor(machine({ answerType: 'canonical' }), contributor)).toBeNull();
    expect(libraryButtonFor(person({ answerType: 'canonical' }), contributor)).toBe('offer');
    expect(libraryButtonFor(unanswered(), contributor)).toBeNull();
    expect(libraryButtonFor(person(), permissionsOf('viewer'))).toBeNull();
  });

  it('is done once saved: an entry, or a suggestion waiting for approval; offered again after a rejection', () => {
    const saved = (status: 'approved' | 'draft' | 'pending' | 'rejected') =>
      person({ savedToLibrary: { status, canonicalAnswerId: null, suggestionId: null } });
    expect(libraryButtonFor(saved('approved'), contributor)).toBe('saved');
    expect(libraryButtonFor(saved('draft'), contributor)).toBe('saved');
    expect(libraryButtonFor(saved('pending'), contributor)).toBe('suggested');
    expect(libraryButtonFor(saved('rejected'), contributor)).toBe('offer');
    // Whoever looks: the answer is in the library (or waiting) for everyone.
    expect(libraryButtonFor(saved('pending'), permissionsOf('viewer'))).toBe('suggested');
  });
});

describe('accept all at or above a confidence', () => {
  const questions = [
    machine({ id: 'high', confidence: 95 }),
    machine({ id: 'edge', confidence: 90, reviewState: 'in_review' }),
    machine({ id: 'low', confidence: 89 }),
    machine({ id: 'done', confidence: 99, reviewState: 'approved' }),
    machine({ id: 'na', confidence: 99, reviewState: 'not_applicable' }),
    person({ id: 'person', confidence: null }),
    unanswered({ id: 'unknown', confidence: 95 }),
  ];

  it("takes the engine's unreviewed answers at or above the threshold, never a person's", () => {
    expect(acceptableAnswers(questions, 90).map((q) => q.id)).toEqual(['high', 'edge']);
    expect(acceptableAnswers(questions, 0).map((q) => q.id)).toEqual(['high', 'edge', 'low']);
    expect(acceptableAnswers(questions, 100)).toEqual([]);
  });
});

describe('answers seen for a bulk approve', () => {
  it("gives each selected question's answer time as loaded, none yet included, and nothing of the others", () => {
    const questions = [
      machine({ id: 'a', answeredAt: '2031-01-02T03:04:05.678Z' }),
      machine({ id: 'b', answeredAt: null }),
      machine({ id: 'c', answeredAt: '2031-01-02T03:04:06.000Z' }),
    ];
    expect(answersSeen(questions, new Set(['a', 'b']))).toEqual({ a: '2031-01-02T03:04:05.678Z', b: null });
    expect(answersSeen(questions, new Set())).toEqual({});
  });
});

describe('export summary', () => {
  it('counts what nobody reviewed: without an answer, written by a person, machine answers below the threshold', () => {
    const summary = exportSummary(
      [
        machine({ confidence: 95 }),
        machine({ confidence: 60, reviewState: 'in_review' }),
        machine({ confidence: 50, reviewState: 'approved' }),
        machine({ answerType: 'draft', confidence: 85 }),
        person(),
        unanswered(),
        unanswered({ reviewState: 'not_applicable' }),
      ],
      80,
    );
    expect(summary).toEqual({
      total: 7,
      unreviewed: 5,
      unanswered: 1,
      belowConfidence: 1,
      // 95 and the draft entry's 85: confident, yet not approved.
      atOrAboveConfidence: 2,
      personDrafts: 1,
      // The person's answer and the draft library entry's: left out of an "all" export unless included.
      drafts: 2,
      approved: 1,
      notApplicable: 1,
    });
  });

  it('is all clear when every question is approved or not applicable', () => {
    const summary = exportSummary(
      [machine({ reviewState: 'approved' }), unanswered({ reviewState: 'not_applicable' })],
      90,
    );
    expect(summary.unreviewed).toBe(0);
    expect(summary.belowConfidence).toBe(0);
  });
});

describe('assignment', () => {
  it('offers everyone who may answer, never a viewer', () => {
    const users = ROLES.map((role) => ({ id: role, role }));
    expect(assigneeCandidates(users).map((u) => u.role)).toEqual(['contributor', 'manager', 'admin', 'super_admin']);
  });

  it('lists the sections in the order they first appear, with their counts, blank ones as "No section"', () => {
    const sections = sectionsOf([
      { section: 'Encryption' },
      { section: null },
      { section: 'Access' },
      { section: 'Encryption' },
      { section: '  ' },
    ]);
    expect(sections).toEqual([
      { section: 'Encryption', label: 'Encryption', count: 2 },
      { section: null, label: 'No section', count: 2 },
      { section: 'Access', label: 'Access', count: 1 },
    ]);
  });
});

describe('due dates', () => {
  it('read a calendar day as that day where the user is', () => {
    const day = parseDay('2025-03-04');
    expect(day?.getFullYear()).toBe(2025);
    expect(day?.getMonth()).toBe(2);
    expect(day?.getDate()).toBe(4);
    expect(parseDay('04/03/2025')).toBeNull();
  });
});

describe('citations', () => {
  const sources: AssessmentQuestionView['sources'] = [
    { type: 'library', canonicalAnswerId: 'e1', question: 'Is data encrypted?', score: 1, confidence: 100 },
    { type: 'document', documentId: 'd1', name: 'policy.pdf', pageNumber: 3, score: 0.8, confidence: 80 },
    { type: 'document', documentId: 'd1', name: 'policy.pdf', pageNumber: 5, score: 0.7, confidence: 70 },
    { type: 'document', name: 'no id', score: 0.5, confidence: 50 },
  ];

  it('offers each library entry and document once', () => {
    expect(citeChoices(sources)).toEqual([
      { cite: { type: 'library', id: 'e1' }, label: 'Library: Is data encrypted?' },
      { cite: { type: 'document', id: 'd1' }, label: 'Document: policy.pdf, page 3' },
    ]);
  });

  it("takes a person's citation as theirs, and never the engine's sources", () => {
    expect(currentCite(person({ sources: sources.slice(1) }))).toEqual({ type: 'document', id: 'd1' });
    expect(currentCite(machine({ sources }))).toBeNull();
    expect(currentCite(person())).toBeNull();
  });
});
