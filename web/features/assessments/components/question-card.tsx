import { memo, useState } from 'react';
import {
  BadgeCheck,
  BookPlus,
  Check,
  FileUser,
  Hourglass,
  Pencil,
  RefreshCw,
  TriangleAlert,
  Unlink,
} from 'lucide-react';
import type { AssessmentQuestionView } from '../../../../common/schemas/assessments';
import { ANSWER_MAX_LENGTH } from '../../../../common/constants';
import { AnswerTypeBadge } from '../../../components/knowledge/answer-type-badge';
import { ConfidenceBadge } from '../../../components/knowledge/confidence-badge';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { cn } from '../../../lib/cn';
import type { QuestionAction, QuestionHandlers } from '../use-question-actions';
import { QuestionSources } from './question-sources';
import { QuestionStatusIcon } from './question-status-icon';

export interface QuestionPermissions {
  /** Edit, accept and regenerate (assessments:run). */
  canReview: boolean;
  /** Also may accept an answer a person wrote (assessments:approve). */
  canApprove: boolean;
  /** Also may add library entries (knowledge:create_draft). */
  canSaveToLibrary: boolean;
}

interface QuestionCardProps {
  question: AssessmentQuestionView;
  /** The assessment spans several sheets (or tables), so each question says which one it is on. */
  showSheet: boolean;
  permissions: QuestionPermissions;
  /** The action running for this question, if any. */
  busy: QuestionAction | null;
  /** Just jumped to from a contradiction link. */
  highlighted: boolean;
  handlers: QuestionHandlers;
}

/** An answer a person wrote that nobody approved yet: exports leave it out unless asked to include drafts. */
export function isUnapprovedDraft(question: Pick<AssessmentQuestionView, 'answerType' | 'status'>): boolean {
  return question.answerType === 'draft' && question.status !== 'approved';
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

function Editor({
  initial,
  saving,
  onSave,
  onCancel,
}: {
  initial: string;
  saving: boolean;
  onSave: (answer: string) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const blank = draft.trim() === '';
  return (
    <form
      className="grid gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!blank) onSave(draft.trim());
      }}
    >
      <Textarea
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        aria-label="Answer"
        maxLength={ANSWER_MAX_LENGTH}
        rows={Math.min(12, Math.max(3, draft.split('\n').length + 1))}
        autoFocus
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            onCancel();
          }
        }}
      />
      <div className="flex items-center gap-2">
        <Button type="submit" size="sm" disabled={blank || saving}>
          {saving ? <Spinner className="size-4 text-primary-foreground" label="Saving" /> : <Check aria-hidden />}
          Save
        </Button>
        <Button variant="ghost" size="sm" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * One question of an assessment: its number, control id and status, the customer's own answer when the file had one,
 * Verity's answer with its type, confidence and sources, the review flags, and the reviewer's actions. Memoized on its question object, which the query keeps
 * the same between polls while the question does not change.
 */
export const QuestionCard = memo(function QuestionCard({
  question,
  showSheet,
  permissions,
  busy,
  highlighted,
  handlers,
}: QuestionCardProps) {
  const [editing, setEditing] = useState(false);
  const { status, answerType, answer } = question;
  const working = status === 'pending' || status === 'processing';
  const hasAnswer = answer !== null && answerType !== null && !working;
  const needsReview = answerType === 'unknown';
  const unapproved = hasAnswer && isUnapprovedDraft(question);
  const headingId = `${questionAnchor(question.orderIndex)}-text`;
  const row = question.row === null ? null : `Row ${String(question.row)}`;
  const where = [showSheet ? question.sheet : null, row].filter(Boolean).join(', ');
  const place = [question.section, where].filter(Boolean).join(' · ');

  return (
    <article
      id={questionAnchor(question.orderIndex)}
      aria-labelledby={headingId}
      className={cn(
        'scroll-mt-4 rounded-xl border bg-background p-4 shadow-sm transition-shadow [contain-intrinsic-size:auto_180px] [content-visibility:auto]',
        highlighted && 'ring-2 ring-primary ring-offset-2',
      )}
    >
      <div className="flex items-start gap-3">
        <span className="mt-0.5 w-9 shrink-0 text-right text-sm font-semibold text-muted-foreground tabular-nums">
          #{question.orderIndex}
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex items-start gap-2">
            <span className="mt-0.5">
              <QuestionStatusIcon status={status} />
            </span>
            <div className="min-w-0 flex-1">
              <h3 id={headingId} className="text-sm leading-snug font-medium break-words">
                {question.controlId && (
                  <span className="mr-1.5 rounded bg-muted px-1.5 py-px font-mono text-xs font-normal text-slate-700">
                    {question.controlId}
                  </span>
                )}
                {question.question}
              </h3>
              {place && <p className="mt-0.5 text-xs text-muted-foreground">{place}</p>}
            </div>
          </div>

          <div className="mt-3 grid gap-2.5 border-t pt-3">
            {question.existingAnswer !== null && (
              <CustomerAnswer
                answer={question.existingAnswer}
                id={`${questionAnchor(question.orderIndex)}-customer`}
                disagrees={question.disagreesWithCustomer}
              />
            )}
            {working ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <Spinner className="size-4" label="Generating" />
                Generating answer...
              </p>
            ) : editing ? (
              <Editor
                initial={answer !== null && !needsReview ? answer : ''}
                saving={busy === 'save'}
                onSave={(next) => handlers.onSave(question, next, () => setEditing(false))}
                onCancel={() => setEditing(false)}
              />
            ) : status === 'failed' && !hasAnswer ? (
              <div className="text-sm">
                <p className="font-medium text-red-700">Failed to generate answer</p>
                {question.errorMessage && <p className="mt-0.5 text-xs text-red-700/90">{question.errorMessage}</p>}
              </div>
            ) : hasAnswer ? (
              <>
                <div className="flex flex-wrap items-center gap-2">
                  {/* Beside the customer's answer, say whose this one is. */}
                  {question.existingAnswer !== null && (
                    <span className="text-xs font-medium text-muted-foreground">Verity&apos;s answer</span>
                  )}
                  <AnswerTypeBadge answerType={answerType} confidence={question.confidence ?? 0} />
                  {question.confidence !== null && <ConfidenceBadge confidence={question.confidence} />}
                  {status === 'approved' && (
                    <Badge variant="success" className="bg-emerald-600 text-white">
                      <BadgeCheck aria-hidden />
                      Approved
                    </Badge>
                  )}
                  {unapproved && (
                    <Badge
                      variant="warning"
                      title="A person wrote this answer. Exports leave it out until a manager or admin approves it."
                    >
                      <Hourglass aria-hidden />
                      Not approved
                    </Badge>
                  )}
                  {question.edited && <Badge variant="outline">Edited</Badge>}
                  {question.sourceChanged && (
                    <Badge
                      variant="warning"
                      title="A library entry this answer came from has changed since. Regenerate to update it."
                    >
                      <Unlink aria-hidden />
                      Source changed
                    </Badge>
                  )}
                </div>
                {/* Plain text: answers may quote markup from documents, which must never render. */}
                <p
                  className={cn(
                    'text-sm leading-relaxed break-words whitespace-pre-line',
                    needsReview ? 'text-muted-foreground' : 'text-slate-700',
                  )}
                >
                  {answer}
                </p>
                <QuestionSources sources={question.sources} />
              </>
            ) : (
              <p className="text-sm text-muted-foreground">No answer available for this question.</p>
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

            {permissions.canReview && !working && !editing && (
              <div className="-ml-2 flex flex-wrap items-center gap-1">
                <Button variant="ghost" size="sm" onClick={() => setEditing(true)} disabled={busy !== null}>
                  <Pencil aria-hidden />
                  {hasAnswer && !needsReview ? 'Edit' : 'Write answer'}
                </Button>
                {hasAnswer && !needsReview && status !== 'approved' && (!unapproved || permissions.canApprove) && (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => handlers.onAccept(question)}
                    disabled={busy !== null}
                  >
                    {busy === 'accept' ? <Spinner className="size-4" label="Accepting" /> : <Check aria-hidden />}
                    {unapproved ? 'Approve' : 'Accept'}
                  </Button>
                )}
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => handlers.onRegenerate(question)}
                  disabled={busy !== null}
                >
                  <RefreshCw className={cn(busy === 'regenerate' && 'animate-spin')} aria-hidden />
                  Regenerate
                </Button>
                {/* A library answer as it stands is in the library already. */}
                {permissions.canSaveToLibrary &&
                  hasAnswer &&
                  !needsReview &&
                  (answerType !== 'canonical' || question.edited) && (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => handlers.onSaveToLibrary(question)}
                      disabled={busy !== null}
                    >
                      {busy === 'library' ? <Spinner className="size-4" label="Saving" /> : <BookPlus aria-hidden />}
                      Save to library
                    </Button>
                  )}
              </div>
            )}
          </div>
        </div>
      </div>
    </article>
  );
});
