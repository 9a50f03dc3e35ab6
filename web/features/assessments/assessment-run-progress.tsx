import { Link } from 'react-router';
import { ArrowRight, CircleAlert, CircleCheck } from 'lucide-react';
import { Progress } from '../../components/ui/progress';
import { Spinner } from '../../components/ui/spinner';
import { isApiRequestError } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import { paths } from '../../paths';
import { useAssessmentBatch } from './api/get-assessment-batch';

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

/**
 * The live state of a started assessment: its progress while the worker answers, then how it turned out. The chat
 * shows it as the answer to a bulk import.
 */
export function AssessmentRunProgress({ id, totalQuestions }: { id: string; totalQuestions: number }) {
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
