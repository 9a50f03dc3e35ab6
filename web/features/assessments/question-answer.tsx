import type { ReactNode } from 'react';
import { CircleSlash, UserPen } from 'lucide-react';
import { NOT_APPLICABLE_TEXT } from '../../../common/review-states';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import { AnswerTypeBadge } from '../../components/knowledge/answer-type-badge';
import { ConfidenceBadge } from '../../components/knowledge/confidence-badge';
import { cn } from '../../lib/cn';
import { formatDateTime } from '../../lib/format';
import { QuestionSources } from './components/question-sources';
import { calibrationNote } from './confidence-note';

type AnswerFields = Pick<
  AssessmentQuestionView,
  'answer' | 'answerType' | 'answerOrigin' | 'confidence' | 'author' | 'answeredAt' | 'sources'
> &
  Partial<Pick<AssessmentQuestionView, 'engineConfidence' | 'confidenceCalibrated'>>;

/** "Written by alice · Mar 4, 2025, 3:05 PM": a person's answer says whose it is instead of a confidence. */
export function AuthorLine({ question }: { question: Pick<AnswerFields, 'author' | 'answeredAt'> }) {
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-slate-700">
      <UserPen className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
      <span>
        Written by <span className="font-medium">{question.author?.username ?? 'a former member'}</span>
        {question.answeredAt && <span className="text-muted-foreground"> · {formatDateTime(question.answeredAt)}</span>}
      </span>
    </span>
  );
}

interface QuestionAnswerProps {
  question: AnswerFields;
  /** Said before the provenance when the customer's own answer is shown beside this one. */
  ownerLabel?: string;
  /** Review badges and flags, after the provenance. */
  badges?: ReactNode;
}

/**
 * An answer with where it honestly comes from: the engine's shows its type, confidence and sources; a person's shows
 * who wrote it and when, and only what they cited (the engine's evidence no longer backs their words).
 */
export function QuestionAnswer({ question, ownerLabel, badges }: QuestionAnswerProps) {
  const byPerson = question.answerOrigin === 'person';
  const needsReview = !byPerson && question.answerType === 'unknown';
  const note = calibrationNote(question);
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        {ownerLabel && <span className="text-xs font-medium text-muted-foreground">{ownerLabel}</span>}
        {byPerson ? (
          <AuthorLine question={question} />
        ) : (
          question.answerType && (
            <>
              {/* The type's wording is the engine's, so it reads the engine's own figure, not the recalibrated one. */}
              <AnswerTypeBadge
                answerType={question.answerType}
                confidence={question.engineConfidence ?? question.confidence ?? 0}
              />
              {question.confidence !== null && !needsReview && <ConfidenceBadge confidence={question.confidence} />}
              {note && !needsReview && <span className="text-xs text-muted-foreground">({note})</span>}
            </>
          )
        )}
        {badges}
      </div>
      {/* Plain text: answers may quote markup from documents, which must never render. */}
      <p
        className={cn(
          'text-sm leading-relaxed break-words whitespace-pre-line',
          needsReview ? 'text-muted-foreground' : 'text-slate-700',
        )}
      >
        {question.answer}
      </p>
      <QuestionSources sources={question.sources} cited={byPerson} />
    </>
  );
}

/**
 * A question marked not applicable: what its answer cell gets in the export, and the answer it had before, if a
 * real one, which comes back when the question is reopened. Never the engine's red 'Needs Review' badge and
 * sentence: a reviewer decided this question needs no answer.
 */
export function NotApplicableAnswer({ earlierAnswer }: { earlierAnswer: string | null }) {
  return (
    <>
      <p className="flex items-start gap-2 text-sm text-slate-700">
        <CircleSlash className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
        <span>
          This question does not apply. The export writes &quot;{NOT_APPLICABLE_TEXT}&quot; in its answer cell.
        </span>
      </p>
      {earlierAnswer !== null && (
        <div className="grid gap-1 rounded-md border border-dashed px-3 py-2">
          <p className="text-xs font-medium text-muted-foreground">Earlier answer, back if reopened</p>
          {/* Plain text, like every answer. */}
          <p className="text-sm leading-relaxed break-words whitespace-pre-line text-muted-foreground">
            {earlierAnswer}
          </p>
        </div>
      )}
    </>
  );
}
