import { memo, useState } from 'react';
import { Pencil, Send } from 'lucide-react';
import type { AssessmentQuestionView } from '../../../../common/schemas/assessments';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { toast, toastError } from '../../../components/ui/use-toast';
import { AnswerEditor } from '../../assessments/answer-editor';
import { NotApplicableAnswer, QuestionAnswer } from '../../assessments/question-answer';
import { DueDate, ReviewStateBadge } from '../../assessments/review-badges';
import { currentCite, hasAnswer, isWorking, mayTake, type Cite } from '../../assessments/review-rules';
import { useAnswerQuestion } from '../api/answer-question';
import { QuestionTitle } from '../../assessments/question-title';

interface MyQuestionCardProps {
  batchId: string;
  question: AssessmentQuestionView;
  /** The signed-in user's allowed actions (from `me`). */
  permissions: readonly string[];
}

/** One question assigned to me: its answer (or none yet), an inline editor, and "Submit for review". */
export const MyQuestionCard = memo(function MyQuestionCard({ batchId, question, permissions }: MyQuestionCardProps) {
  const [editing, setEditing] = useState(false);
  const mutation = useAnswerQuestion();
  const [running, setRunning] = useState<'save' | 'submit' | null>(null);
  const working = isWorking(question);
  const answered = hasAnswer(question);
  const canEdit = permissions.includes('assessments:run') && !working && question.reviewState !== 'not_applicable';
  const canSubmit = mayTake('submit', question, permissions);
  const headingId = `my-question-${question.id}`;

  const run = (kind: 'save' | 'submit', answer: string | null, cite: Cite | null, submit: boolean) => {
    setRunning(kind);
    mutation.mutate(
      {
        batchId,
        questionId: question.id,
        body: answer === null ? undefined : { answer, cite },
        submit,
        answeredAt: question.answeredAt,
      },
      {
        onSuccess: () => {
          toast({ title: submit ? 'Submitted for review' : 'Answer saved', variant: 'success' });
          setEditing(false);
        },
        onError: (error) =>
          toastError(error, submit ? 'Failed to submit the answer for review' : 'Failed to update the answer'),
        onSettled: () => setRunning(null),
      },
    );
  };

  return (
    <article aria-labelledby={headingId} className="rounded-xl border bg-background p-4 shadow-sm">
      <div className="flex items-start gap-3">
        <span className="mt-0.5 w-9 shrink-0 text-right text-sm font-semibold text-muted-foreground tabular-nums">
          #{question.orderIndex}
        </span>
        <div className="min-w-0 flex-1">
          <QuestionTitle id={headingId} question={question} />
          {question.section && <p className="mt-0.5 text-xs text-muted-foreground">{question.section}</p>}
          <p className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
            <ReviewStateBadge state={question.reviewState} />
            {question.dueOn && <DueDate dueOn={question.dueOn} overdue={question.overdue} />}
          </p>

          <div className="mt-3 grid grid-cols-[minmax(0,1fr)] gap-2.5 border-t pt-3">
            {working ? (
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <Spinner className="size-4" label="Generating" />
                Generating answer...
              </p>
            ) : editing ? (
              <AnswerEditor
                initial={answered && question.answer !== null ? question.answer : ''}
                sources={question.sources}
                initialCite={currentCite(question)}
                evidenceFor={{ batchId, questionId: question.id }}
                saving={running !== null}
                onSave={(answer, cite) => run('save', answer, cite, false)}
                onSaveAndSubmit={
                  // Submitting needs the right to run assessments, which editing needs too.
                  permissions.includes('assessments:run')
                    ? (answer, cite) => run('submit', answer, cite, true)
                    : undefined
                }
                onCancel={() => setEditing(false)}
              />
            ) : question.reviewState === 'not_applicable' ? (
              <NotApplicableAnswer earlierAnswer={answered ? question.answer : null} />
            ) : answered ? (
              <QuestionAnswer question={question} />
            ) : (
              <p className="text-sm text-muted-foreground">No answer yet.</p>
            )}

            {!editing && (canEdit || canSubmit) && (
              <div className="-ml-2 flex flex-wrap items-center gap-1">
                {canEdit && (
                  <Button variant="ghost" size="sm" onClick={() => setEditing(true)} disabled={running !== null}>
                    <Pencil aria-hidden />
                    {answered ? 'Edit' : 'Write answer'}
                  </Button>
                )}
                {canSubmit && (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => run('submit', null, null, true)}
                    disabled={running !== null}
                  >
                    {running === 'submit' ? <Spinner className="size-4" label="Submitting" /> : <Send aria-hidden />}
                    Submit for review
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
