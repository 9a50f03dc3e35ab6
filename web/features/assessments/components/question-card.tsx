import { memo, useState } from 'react';
import { FileUser, History, TriangleAlert, Unlink, UserRound } from 'lucide-react';
import type { AssessmentQuestionView } from '../../../../common/schemas/assessments';
import { Badge } from '../../../components/ui/badge';
import { Checkbox } from '../../../components/ui/checkbox';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { AnswerEditor } from '../answer-editor';
import { NotApplicableAnswer, QuestionAnswer } from '../question-answer';
import { DueDate, ReviewStateBadge } from '../review-badges';
import { currentCite, hasAnswer, isWorking, questionOffer } from '../review-rules';
import type { QuestionAction, QuestionHandlers } from '../use-question-actions';
import { QuestionCardActions } from './question-card-actions';
import { QuestionStatusIcon } from './question-status-icon';
import { DropdownCell } from './dropdown-cell';
import { QuestionTitle } from '../question-title';

interface QuestionCardProps {
  batchId: string;
  question: AssessmentQuestionView;
  /** The assessment spans several sheets (or tables), so each question says which one it is on. */
  showSheet: boolean;
  /** The signed-in user's allowed actions (from `me`). */
  permissions: readonly string[];
  /** Shows a checkbox for the bulk actions; `selected` is its state. */
  selectable: boolean;
  selected: boolean;
  /** The action running for this question, if any. */
  busy: QuestionAction | null;
  /** Just jumped to from a contradiction link. */
  highlighted: boolean;
  handlers: QuestionHandlers;
}

/** The DOM id a contradiction link scrolls to. */
export function questionAnchor(orderIndex: number): string {
  return `question-${String(orderIndex)}`;
}

/**
 * The answer the customer had already written in their file: a reviewer compares it with Verity's, and the filled file
 * keeps it unless the import chose to replace it.
 */
function CustomerAnswer({ answer, id, disagrees }: { answer: string; id: string; disagrees: boolean }) {
  return (
    <section aria-labelledby={id} className="grid gap-1 rounded-md border border-dashed bg-surface px-3 py-2">
      <h4 id={id} className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
        <FileUser className="size-3.5" aria-hidden />
        Customer&apos;s answer
      </h4>
      {/* Plain text, like every answer: a file may hold markup. */}
      <p className="text-sm leading-relaxed break-words whitespace-pre-line text-slate-700">{answer}</p>
      {disagrees && (
        <p className="text-xs font-medium text-amber-800">
          Verity&apos;s answer says the opposite. Check which one is right before you export.
        </p>
      )}
    </section>
  );
}

/** Flags a reviewer must see beside the answer: its library entry changed since, or is past its review interval. */
function AnswerFlags({ question }: { question: AssessmentQuestionView }) {
  return (
    <>
      {question.sourceChanged && (
        <Badge
          variant="warning"
          title="A library entry this answer came from has changed since. Regenerate to update it."
        >
          <Unlink aria-hidden />
          Source changed
        </Badge>
      )}
      {question.staleSource && (
        <Badge
          variant="warning"
          title="The library entry this answer came from is past its review interval. Its owner should confirm it is still true."
        >
          <History aria-hidden />
          Source needs re-verification
        </Badge>
      )}
    </>
  );
}

/**
 * One question of an assessment: its number, control id and status, where it stands in review (state, assignee, due
 * date), the customer's own answer when the file had one, the answer with its honest provenance, the review flags,
 * and the actions the user may take. Memoized on its question object, which the query keeps the same between polls
 * while the question does not change.
 */
export const QuestionCard = memo(function QuestionCard({
  batchId,
  question,
  showSheet,
  permissions,
  selectable,
  selected,
  busy,
  highlighted,
  handlers,
}: QuestionCardProps) {
  const [editing, setEditing] = useState(false);
  const { status, answer } = question;
  const working = isWorking(question);
  const answered = hasAnswer(question);
  const offer = questionOffer(question, permissions);
  const anchor = questionAnchor(question.orderIndex);
  const headingId = `${anchor}-text`;
  const row = question.row === null ? null : `Row ${String(question.row)}`;
  const where = [showSheet ? question.sheet : null, row].filter(Boolean).join(', ');
  const place = [question.section, where].filter(Boolean).join(' · ');
  const hasText = answer !== null && !working;
  const notApplicable = question.reviewState === 'not_applicable';

  return (
    <article
      id={anchor}
      aria-labelledby={headingId}
      className={cn(
        'scroll-mt-4 rounded-xl border bg-background p-4 shadow-sm transition-shadow [contain-intrinsic-size:auto_200px] [content-visibility:auto]',
        highlighted && 'ring-2 ring-primary ring-offset-2',
        selected && 'border-primary/60 bg-accent/30',
      )}
    >
      <div className="flex items-start gap-3">
        <div className="flex w-9 shrink-0 flex-col items-end gap-2">
          <span className="mt-0.5 text-sm font-semibold text-muted-foreground tabular-nums">
            #{question.orderIndex}
          </span>
          {selectable && (
            <Checkbox
              checked={selected}
              onCheckedChange={(checked) => handlers.onToggleSelected(question.id, checked === true)}
              aria-label={`Select question #${String(question.orderIndex)}`}
            />
          )}
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex items-start gap-2">
            <span className="mt-0.5">
              <QuestionStatusIcon question={question} />
            </span>
            <div className="min-w-0 flex-1">
              <QuestionTitle id={headingId} question={question} />
              {place && <p className="mt-0.5 text-xs text-muted-foreground">{place}</p>}
              <p className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
                <ReviewStateBadge state={question.reviewState} />
                {question.assignee && (
                  <span className="inline-flex items-center gap-1 text-slate-700">
                    <UserRound className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
                    Assigned to <span className="font-medium">{question.assignee.username}</span>
                  </span>
                )}
                {question.dueOn && <DueDate dueOn={question.dueOn} overdue={question.overdue} />}
                {question.reviewState === 'approved' && question.reviewedBy && (
                  <span className="text-muted-foreground">Approved by {question.reviewedBy.username}</span>
                )}
                {notApplicable && question.reviewedBy && (
                  <span className="text-muted-foreground">Marked by {question.reviewedBy.username}</span>
                )}
              </p>
            </div>
          </div>

          <div className="mt-3 grid grid-cols-[minmax(0,1fr)] gap-2.5 border-t pt-3">
            {question.existingAnswer !== null && (
              <CustomerAnswer
                answer={question.existingAnswer}
                id={`${anchor}-customer`}
                disagrees={question.disagreesWithCustomer}
              />
            )}
            {working ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <Spinner className="size-4" label="Generating" />
                Generating answer...
              </p>
            ) : editing ? (
              <AnswerEditor
                initial={answered && answer !== null ? answer : ''}
                sources={question.sources}
                initialCite={currentCite(question)}
                evidenceFor={{ batchId, questionId: question.id }}
                saving={busy === 'save'}
                onSave={(next, cite) => handlers.onSave(question, next, cite, () => setEditing(false))}
                onCancel={() => setEditing(false)}
              />
            ) : notApplicable ? (
              // Whatever the engine said (a 'Needs Review' placeholder, or a failure) no longer matters.
              <NotApplicableAnswer earlierAnswer={answered ? answer : null} />
            ) : status === 'failed' && !hasText ? (
              <div className="text-sm">
                <p className="font-medium text-red-700">Failed to generate answer</p>
                {question.errorMessage && <p className="mt-0.5 text-xs text-red-700/90">{question.errorMessage}</p>}
              </div>
            ) : hasText ? (
              <QuestionAnswer
                question={question}
                // Beside the customer's answer, say whose this one is.
                ownerLabel={
                  question.existingAnswer !== null && question.answerOrigin !== 'person' ? "Verity's answer" : undefined
                }
                badges={<AnswerFlags question={question} />}
              />
            ) : (
              <p className="text-sm text-muted-foreground">No answer available for this question.</p>
            )}

            {!working && !editing && !notApplicable && answered && (
              <DropdownCell
                question={question}
                canPick={offer.edit !== null && busy === null}
                onPick={handlers.onPickChoice}
              />
            )}

            {question.conflictsWith.length > 0 && (
              <p className="flex flex-wrap items-center gap-1.5 text-xs">
                <Badge variant="destructive" title="Another answer in this assessment says the opposite">
                  <TriangleAlert aria-hidden />
                  Inconsistent
                </Badge>
                <span className="text-red-800">
                  Contradicts{' '}
                  {question.conflictsWith.map((other, index) => (
                    <span key={other}>
                      {index > 0 && ', '}
                      <button
                        type="button"
                        className="rounded-sm font-medium underline-offset-2 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                        onClick={() => handlers.onJumpTo(other)}
                      >
                        #{other}
                      </button>
                    </span>
                  ))}
                </span>
              </p>
            )}

            {!editing && (
              <QuestionCardActions
                question={question}
                offer={offer}
                busy={busy}
                handlers={handlers}
                onEdit={() => setEditing(true)}
              />
            )}
          </div>
        </div>
      </div>
    </article>
  );
});
