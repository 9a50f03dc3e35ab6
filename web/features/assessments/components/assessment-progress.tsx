import { Info } from 'lucide-react';
import type { AssessmentProgress, ReviewCounts } from '../../../../common/schemas/assessments';
import { reviewSentence } from '../review-progress';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Progress } from '../../../components/ui/progress';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/format';

function Count({ label, value, tone }: { label: string; value: string; tone: string }) {
  return (
    <div className="rounded-lg border bg-background px-4 py-3">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className={cn('mt-0.5 text-2xl font-semibold tabular-nums', tone)}>{value}</dd>
    </div>
  );
}

/**
 * PRODUCT: counts Completed, Pending, Failed and Progress percent, the overall bar, and a notice while processing.
 * Those are the worker's; once it is done, a sentence says where review stands, so 100% is not read as finished.
 */
export function AssessmentProgressSummary({
  progress,
  moving,
  review,
}: {
  progress: AssessmentProgress;
  moving: boolean;
  review: ReviewCounts;
}) {
  const sentence = moving ? null : reviewSentence(review, progress.total);
  return (
    <section aria-label="Progress" className="grid gap-3">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Count label="Completed" value={formatNumber(progress.completed)} tone="text-emerald-700" />
        <Count label="Pending" value={formatNumber(progress.pending)} tone="text-slate-700" />
        <Count
          label="Failed"
          value={formatNumber(progress.failed)}
          tone={progress.failed > 0 ? 'text-red-700' : 'text-slate-700'}
        />
        <Count label="Progress" value={`${String(progress.percentage)}%`} tone="text-primary" />
      </dl>
      <Progress value={progress.percentage} aria-label="Overall progress" />
      {sentence && <p className="text-sm text-slate-700">Review: {sentence}</p>}
      {moving && (
        <Alert variant="info">
          <Info aria-hidden />
          <AlertDescription>Processing in progress: answers appear as they are generated.</AlertDescription>
        </Alert>
      )}
    </section>
  );
}
