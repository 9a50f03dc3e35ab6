import type { Action } from './policies';

/**
 * Where a question's answer stands in review (PRODUCT §9 Review), apart from the worker's progress (`status`):
 * nobody has answered it yet, someone (the engine or a person) drafted an answer, its author submitted it for
 * review, a reviewer approved it, or the question does not apply to this organization.
 */
export const REVIEW_STATES = ['needs_answer', 'drafted', 'in_review', 'approved', 'not_applicable'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const REVIEW_STATE_LABELS: Record<ReviewState, string> = {
  needs_answer: 'Needs answer',
  drafted: 'Drafted',
  in_review: 'In review',
  approved: 'Approved',
  not_applicable: 'Not applicable',
};

/** What a question marked not applicable says in the customer's file (a dropdown's own N/A value where it has one). */
export const NOT_APPLICABLE_TEXT = 'N/A';

/** Done with: an approved answer, or a question that does not apply. The rest still needs someone. */
export const isReviewed = (state: ReviewState) => state === 'approved' || state === 'not_applicable';

/** What a reviewer can do to one question, the states it may start from, and who may do it. */
export const REVIEW_ACTIONS = {
  /** The author hands a drafted answer to a reviewer. */
  submit: { from: ['drafted'], to: 'in_review', action: 'assessments:run', needsAnswer: true },
  approve: { from: ['drafted', 'in_review'], to: 'approved', action: 'assessments:approve', needsAnswer: true },
  /** Back to its author: a submitted answer that needs more work, or an approval withdrawn. */
  return: { from: ['in_review', 'approved'], to: 'drafted', action: 'assessments:approve', needsAnswer: true },
  not_applicable: {
    from: ['needs_answer', 'drafted', 'in_review', 'approved'],
    to: 'not_applicable',
    action: 'assessments:approve',
    needsAnswer: false,
  },
  /** A question marked not applicable after all applies: it needs an answer again (or has its old draft back). */
  reopen: { from: ['not_applicable'], to: 'drafted', action: 'assessments:approve', needsAnswer: false },
} as const satisfies Record<
  string,
  { from: readonly ReviewState[]; to: ReviewState; action: Action; needsAnswer: boolean }
>;
export type ReviewAction = keyof typeof REVIEW_ACTIONS;
export const REVIEW_ACTION_NAMES = Object.keys(REVIEW_ACTIONS) as ReviewAction[];

/** The reviewer's default for "accept every machine answer at or above N%". */
export const BULK_ACCEPT_DEFAULT_CONFIDENCE = 90;
