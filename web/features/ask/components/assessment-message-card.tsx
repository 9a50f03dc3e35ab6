import { memo } from 'react';
import { FileSpreadsheet, ShieldCheck } from 'lucide-react';
import { Spinner } from '../../../components/ui/spinner';
import { AssessmentRunProgress } from '../../assessments/assessment-run-progress';
import type { ChatAssessment } from '../chat-store';

/**
 * The chat's message for a bulk assessment: the file as the user's side, and as the answer the assessment's live
 * progress with a link to its detail page. No answer text is made up while it runs.
 */
export const AssessmentMessageCard = memo(function AssessmentMessageCard({
  assessment,
}: {
  assessment: ChatAssessment;
}) {
  return (
    <article aria-label={`Bulk assessment for ${assessment.customerName}`} className="grid gap-3">
      <div className="flex justify-end">
        <div className="flex max-w-[85%] items-center gap-2.5 rounded-2xl rounded-tr-sm bg-primary px-4 py-2.5 text-sm text-primary-foreground shadow-sm">
          <FileSpreadsheet className="size-4 shrink-0" aria-hidden />
          <span className="min-w-0">
            <span className="block font-medium break-all">{assessment.fileName}</span>
            <span className="block text-xs opacity-85">Bulk assessment for {assessment.customerName}</span>
          </span>
        </div>
      </div>
      <div className="flex items-start gap-3">
        <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent text-primary">
          <ShieldCheck className="size-4" aria-hidden />
        </span>
        <div className="min-w-0 flex-1 rounded-xl border bg-background p-4 shadow-sm">
          {assessment.id === null ? (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <Spinner className="size-4" label="Uploading" />
              Uploading the questionnaire and reading its questions...
            </p>
          ) : (
            <AssessmentRunProgress id={assessment.id} totalQuestions={assessment.totalQuestions} />
          )}
        </div>
      </div>
    </article>
  );
});
