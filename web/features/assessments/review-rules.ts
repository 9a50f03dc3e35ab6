import { can } from '../../../common/policies';
import {
  isReviewed,
  REVIEW_ACTION_NAMES,
  REVIEW_ACTIONS,
  type ReviewAction,
  type ReviewState,
} from '../../../common/review-states';
import type { StoredRole } from '../../../common/roles';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';

// What the review screens may offer for a question, worked out from the review-state machine and the policy table in
// common/ (the same ones the server enforces), so a button is shown exactly when the server would accept the click.

type Question = Pick<
  AssessmentQuestionView,
  'answer' | 'answerType' | 'answerOrigin' | 'status' | 'reviewState' | 'confidence' | 'savedToLibrary'
>;

/** The worker holds it (answering, or sent back for a new answer): nobody reviews it meanwhile. */
export function isWorking(question: Pick<Question, 'status'>): boolean {
  return question.status === 'pending' || question.status === 'processing';
}

/** An answer someone can stand behind: a person's, or the engine's when it found one (not "Needs Review"). */
export function hasAnswer(question: Question): boolean {
  if (question.answer === null || isWorking(question)) return false;
  if (question.answerOrigin === 'person') return true;
  return question.answerType !== null && question.answerType !== 'unknown';
}

/**
 * This user may take this review step on this question now: its state allows it, the policy grants it, and it has
 * the answer the step needs.
 */
export function mayTake(action: ReviewAction, question: Question, permissions: readonly string[]): boolean {
  const rule = REVIEW_ACTIONS[action];
  return (
    !isWorking(question) &&
    (rule.from as readonly ReviewState[]).includes(question.reviewState) &&
    permissions.includes(rule.action) &&
    (!rule.needsAnswer || hasAnswer(question))
  );
}

/**
 * The review steps this user may take on this question now (`mayTake`). Submitting is left out where the user may
 * approve it at once.
 */
export function reviewActionsFor(question: Question, permissions: readonly string[]): ReviewAction[] {
  const allowed = REVIEW_ACTION_NAMES.filter((name) => mayTake(name, question, permissions));
  return allowed.includes('approve') ? allowed.filter((name) => name !== 'submit') : allowed;
}

/** What the question's "Save to library" button is: offered, done (an entry or a waiting suggestion), or absent. */
export type LibraryButton = 'offer' | 'saved' | 'suggested' | null;

export function libraryButtonFor(question: Question, permissions: readonly string[]): LibraryButton {
  const saved = question.savedToLibrary;
  if (saved && (saved.status === 'approved' || saved.status === 'draft')) return 'saved';
  if (saved?.status === 'pending') return 'suggested';
  if (!permissions.includes('knowledge:create_draft') || !hasAnswer(question)) return null;
  // A library answer as the engine gave it is in the library already.
  if (question.answerOrigin !== 'person' && question.answerType === 'canonical') return null;
  return 'offer';
}

/** Every action a question card may show, for this user and this question. */
export interface QuestionOffer {
  review: ReviewAction[];
  /** 'Edit' for an answer, 'Write answer' for a question without one; null: not offered. */
  edit: 'Edit' | 'Write answer' | null;
  regenerate: boolean;
  assign: boolean;
  library: LibraryButton;
}

export function questionOffer(question: Question, permissions: readonly string[]): QuestionOffer {
  const working = isWorking(question);
  const mayRun = permissions.includes('assessments:run') && !working;
  // Not applicable is done with: it is reopened first.
  const open = question.reviewState !== 'not_applicable';
  return {
    review: reviewActionsFor(question, permissions),
    edit: mayRun && open ? (hasAnswer(question) ? 'Edit' : 'Write answer') : null,
    regenerate: mayRun && open,
    assign: permissions.includes('assessments:assign') && !working,
    library: working ? null : libraryButtonFor(question, permissions),
  };
}

/** The button's words for a review step; sending back an approved answer withdraws the approval. */
export function reviewActionLabel(action: ReviewAction, state: ReviewState): string {
  switch (action) {
    case 'submit':
      return 'Submit for review';
    case 'approve':
      return 'Approve';
    case 'return':
      return state === 'approved' ? 'Withdraw approval' : 'Send back';
    case 'not_applicable':
      return 'Mark not applicable';
    case 'reopen':
      return 'Reopen';
  }
}

/**
 * Machine answers "accept all ≥ N%" would approve: the engine's own answers at or above the confidence that nobody
 * reviewed yet (the server applies the same rule).
 */
export function acceptableAnswers<Q extends Question>(questions: readonly Q[], minConfidence: number): Q[] {
  return questions.filter(
    (q) =>
      q.answerOrigin === 'machine' &&
      hasAnswer(q) &&
      q.confidence !== null &&
      q.confidence >= minConfidence &&
      (q.reviewState === 'drafted' || q.reviewState === 'in_review'),
  );
}

/**
 * What a bulk approve sends as the answers the reviewer saw: each selected question's `answeredAt` as this page
 * loaded it. The server approves only answers still at that time and counts the others as changed.
 */
export function answersSeen(
  questions: readonly Pick<AssessmentQuestionView, 'id' | 'answeredAt'>[],
  selected: ReadonlySet<string>,
): Record<string, string | null> {
  return Object.fromEntries(questions.filter((q) => selected.has(q.id)).map((q) => [q.id, q.answeredAt]));
}

/** What the export dialog tells the user before the file leaves: how much nobody has reviewed yet. */
export interface ExportSummary {
  total: number;
  /** Neither approved nor marked not applicable. */
  unreviewed: number;
  /** Of those: questions with no answer at all. */
  unanswered: number;
  /** Unreviewed machine answers below the chosen confidence. */
  belowConfidence: number;
  /** Unreviewed machine answers at or above it (not approved yet all the same). */
  atOrAboveConfidence: number;
  /** Unreviewed answers a person wrote. */
  personDrafts: number;
  /**
   * Draft answers nobody approved (a person's, or a draft library entry's): an "all answers" export leaves them out
   * unless the user includes them, marked as drafts.
   */
  drafts: number;
  approved: number;
  notApplicable: number;
}

export function exportSummary(questions: readonly Question[], minConfidence: number): ExportSummary {
  const summary: ExportSummary = {
    total: questions.length,
    unreviewed: 0,
    unanswered: 0,
    belowConfidence: 0,
    atOrAboveConfidence: 0,
    personDrafts: 0,
    drafts: 0,
    approved: 0,
    notApplicable: 0,
  };
  for (const q of questions) {
    if (q.reviewState === 'approved') summary.approved += 1;
    if (q.reviewState === 'not_applicable') summary.notApplicable += 1;
    if (isReviewed(q.reviewState)) continue;
    summary.unreviewed += 1;
    if (hasAnswer(q) && q.answerType === 'draft') summary.drafts += 1;
    if (!hasAnswer(q)) summary.unanswered += 1;
    else if (q.answerOrigin === 'person') summary.personDrafts += 1;
    else if ((q.confidence ?? 0) < minConfidence) summary.belowConfidence += 1;
    else summary.atOrAboveConfidence += 1;
  }
  return summary;
}

/** People a question may be assigned to: those who may answer it (a viewer cannot). */
export function assigneeCandidates<U extends { role: StoredRole }>(users: readonly U[]): U[] {
  return users.filter((user) => can(user.role, 'assessments:run'));
}

/** A section of the questionnaire as the import found it (null: questions outside any section). */
export interface SectionChoice {
  section: string | null;
  label: string;
  count: number;
}

/** The questionnaire's sections in the order they first appear, each with its number of questions. */
export function sectionsOf(questions: readonly Pick<AssessmentQuestionView, 'section'>[]): SectionChoice[] {
  const bySection = new Map<string | null, SectionChoice>();
  for (const { section } of questions) {
    const key = section?.trim() ? section : null;
    const entry = bySection.get(key);
    if (entry) entry.count += 1;
    else bySection.set(key, { section: key, label: key ?? 'No section', count: 1 });
  }
  return [...bySection.values()];
}

/** A calendar day (YYYY-MM-DD) read as that day where the user is, not as midnight UTC (a day early in America). */
export function parseDay(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? null : date;
}

type Source = AssessmentQuestionView['sources'][number];
/** What a person's answer may cite: a library entry or a document. */
export type Cite = { type: 'library' | 'document'; id: string };

export interface CiteChoice {
  cite: Cite;
  label: string;
}

/**
 * What a person writing an answer may cite: the library entries and documents the question's sources name (the
 * engine's, or the person's own earlier citation), each once.
 */
export function citeChoices(sources: readonly Source[]): CiteChoice[] {
  const choices: CiteChoice[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    const id = source.type === 'library' ? source.canonicalAnswerId : source.documentId;
    if (!id || seen.has(`${source.type}:${id}`)) continue;
    seen.add(`${source.type}:${id}`);
    const page = source.pageNumber ? `, page ${String(source.pageNumber)}` : '';
    choices.push({
      cite: { type: source.type, id },
      label:
        source.type === 'library'
          ? `Library: ${source.question ?? 'library entry'}`
          : `Document: ${source.name ?? 'document'}${page}`,
    });
  }
  return choices;
}

/** The citation a person's answer carries now (a machine answer's sources are not the person's citation). */
export function currentCite(question: Pick<AssessmentQuestionView, 'answerOrigin' | 'sources'>): Cite | null {
  if (question.answerOrigin !== 'person') return null;
  return citeChoices(question.sources)[0]?.cite ?? null;
}
