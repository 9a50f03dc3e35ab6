import { CircleCheck, CircleX, type LucideIcon } from 'lucide-react';
import type { BatchStatus } from '../../../../common/schemas/assessments';
import { Badge, type BadgeVariant } from '../../../components/ui/badge';
import { Spinner } from '../../../components/ui/spinner';

const BATCH_STATUS: Record<
  BatchStatus,
  { label: string; variant: BadgeVariant; icon: LucideIcon | null; tone: string }
> = {
  processing: { label: 'Processing', variant: 'info', icon: null, tone: '' },
  completed: { label: 'Completed', variant: 'success', icon: CircleCheck, tone: 'text-emerald-600' },
  failed: { label: 'Failed', variant: 'destructive', icon: CircleX, tone: 'text-red-600' },
};

/** The specification card: the batch's status as an icon (a spinner while processing). */
export function BatchStatusIcon({ status, className = 'size-5' }: { status: BatchStatus; className?: string }) {
  const { icon: Icon, tone } = BATCH_STATUS[status];
  if (!Icon) return <Spinner className={className} label="Processing" />;
  return <Icon className={`${className} shrink-0 ${tone}`} aria-hidden />;
}

export function BatchStatusBadge({ status }: { status: BatchStatus }) {
  const { label, variant } = BATCH_STATUS[status];
  return <Badge variant={variant}>{label}</Badge>;
}
