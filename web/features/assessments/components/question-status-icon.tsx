import { CircleAlert, CircleCheck, Clock } from 'lucide-react';
import type { QuestionStatus } from '../../../../common/schemas/assessments';
import { Spinner } from '../../../components/ui/spinner';

const LABELS: Record<QuestionStatus, string> = {
  pending: 'Pending',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
};

/**
 * The worker's progress on a question at a glance (where it stands in review is its review badge); the label is for
 * screen readers and the tooltip.
 */
export function QuestionStatusIcon({ status }: { status: QuestionStatus }) {
  const label = LABELS[status];
  const common = { className: 'size-4 shrink-0', role: 'img', 'aria-label': label } as const;
  switch (status) {
    case 'pending':
      return (
        <span title={label} className="text-muted-foreground">
          <Clock {...common} />
        </span>
      );
    case 'processing':
      return <Spinner className="size-4" label={label} />;
    case 'completed':
      return (
        <span title={label} className="text-emerald-600">
          <CircleCheck {...common} />
        </span>
      );
    case 'failed':
      return (
        <span title={label} className="text-red-600">
          <CircleAlert {...common} />
        </span>
      );
  }
}
