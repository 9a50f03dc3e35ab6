import { CircleCheck, CircleX, LoaderCircle, type LucideIcon } from 'lucide-react';
import type { BatchStatus } from '../../../../common/schemas/assessments';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';
import { Spinner } from '../../../components/ui/spinner';

/**
 * Each batch status in its own colour with its own icon: Processing blue with a turning spinner, Completed green with
 * a check, Failed red with a cross. (Teal is the drafts' colour, PRODUCT §8, so Processing no longer uses it.)
 */
export const BATCH_STATUS_LOOKS: Record<
  BatchStatus,
  { label: string; className: string; icon: LucideIcon; spin: boolean; tone: string }
> = {
  processing: {
    label: 'Processing',
    className: 'border-sky-200 bg-sky-50 text-sky-800',
    icon: LoaderCircle,
    spin: true,
    tone: 'text-sky-600',
  },
  completed: {
    label: 'Completed',
    className: 'border-transparent bg-emerald-100 text-emerald-800',
    icon: CircleCheck,
    spin: false,
    tone: 'text-emerald-600',
  },
  failed: {
    label: 'Failed',
    className: 'border-transparent bg-red-100 text-red-800',
    icon: CircleX,
    spin: false,
    tone: 'text-red-600',
  },
};

/** The specification card: the batch's status as an icon (a spinner while processing). */
export function BatchStatusIcon({ status, className = 'size-5' }: { status: BatchStatus; className?: string }) {
  const { icon: Icon, spin, tone } = BATCH_STATUS_LOOKS[status];
  if (spin) return <Spinner className={cn(className, tone)} label="Processing" />;
  return <Icon className={`${className} shrink-0 ${tone}`} aria-hidden />;
}

export function BatchStatusBadge({ status }: { status: BatchStatus }) {
  const { label, className, icon: Icon, spin } = BATCH_STATUS_LOOKS[status];
  return (
    <Badge className={className}>
      <Icon className={cn(spin && 'animate-spin motion-reduce:animate-none')} aria-hidden />
      {label}
    </Badge>
  );
}
