import { memo } from 'react';
import { Link } from 'react-router';
import { ArrowRight, CircleAlert, CircleCheck, FileSpreadsheet, ShieldCheck } from 'lucide-react';
import { Progress } from '../../../components/ui/progress';
import { Spinner } from '../../../components/ui/spinner';
import { isApiRequestError } from '../../../lib/api';
import { formatNumber } from '../../../lib/format';
import { paths } from '../../../paths';
import { useAssessmentBatch } from '../../assessments/api/get-assessment-batch';
import type { ChatAssessment } from '../chat-store';

function OpenLink({ id }: { id: string }) {
  return (
    <Link
      to={paths.assessment(id)}
      className="inline-flex w-fit items-center gap-1 rounded-sm text-sm font-medium text-primary outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
    >
      Open assessment
      <ArrowRight className="size-4" aria-hidden />
    </Link>
  );
}

function plural(count: number, one: string, many: string) {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/** The live state of a started assessment: its progress while the worker answers, then how it turned out. */
function AssessmentProgress({ id, totalQuestions }: { id: string; totalQuestions: number }) {
  const batch = useAssessmentBatch(id);
  const data = batch.data;
  const done = data?.status === 'completed';

  if (batch.isError && !data) {
    const gone = isApiRequestError(batch.error) && batch.error.status === 404;
    return (
      <p className="text-sm text-muted-foreground">
        {gone ? 'This assessment was deleted.' : 'The progress of this assessment could not be loaded.'}
      </p>
    );
  }
  const total = data?.totalQuestions ?? totalQuestions;
  const processed = data?.processedQuestions ?? 0;

  if (data?.status === 'failed') {
    return (
      <div className="grid gap-2">
        <p className="flex items-start gap-2 text-sm font-medium text-red-700">
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          Assessment failed{data.error ? `: ${data.error}` : ': no question could be answered.'}
        </p>
        <OpenLink id={id} />
      </div>
    );
  }
  if (done) {
    // 'Needs Review' answers and failed questions are the ones a person must answer.
    const needReview = data.needsReviewQuestions + data.failedQuestions;
    return (
      <div className="grid gap-2">
        <p className="flex items-center gap-2 text-sm font-medium text-emerald-800">
          <CircleCheck className="size-4 shrink-0" aria-hidden />
          {`Assessment complete: ${formatNumber(total - needReview)} answered, ${plural(needReview, 'needs review', 'need review')}`}
        </p>
        <Progress value={100} aria-label="Assessment progress" />
        <OpenLink id={id} />
      </div>
    );
  }
  return (
    <div className="grid gap-2">
      <p className="flex items-center gap-2 text-sm text-slate-700">
        <Spinner className="size-4" label="Answering" />
        Answering {formatNumber(processed)} of {plural(total, 'question', 'questions')}…
      </p>
      <Progress value={total > 0 ? (100 * processed) / total : null} aria-label="Assessment progress" />
      <OpenLink id={id} />
    </div>
  );
}

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
            <AssessmentProgress id={assessment.id} totalQuestions={assessment.totalQuestions} />
          )}
        </div>
      </div>
    </article>
  );
});
