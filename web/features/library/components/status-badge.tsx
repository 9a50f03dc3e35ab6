import { CalendarClock } from 'lucide-react';
import type { AnswerStatus } from '../../../../common/schemas/knowledge';
import { Badge } from '../../../components/ui/badge';

const STATUS_LOOK: Record<AnswerStatus, { label: string; variant: 'success' | 'warning' | 'secondary' }> = {
  approved: { label: 'Approved', variant: 'success' },
  draft: { label: 'Draft', variant: 'warning' },
  archived: { label: 'Archived', variant: 'secondary' },
};

export const STATUS_LABELS: Record<AnswerStatus, string> = {
  approved: STATUS_LOOK.approved.label,
  draft: STATUS_LOOK.draft.label,
  archived: STATUS_LOOK.archived.label,
};

export function StatusBadge({ status }: { status: AnswerStatus }) {
  const { label, variant } = STATUS_LOOK[status];
  return <Badge variant={variant}>{label}</Badge>;
}

/** An approved entry past its review interval: its owner should confirm it is still true (PRODUCT §5). */
export function ReverifyBadge() {
  return (
    <Badge variant="warning" title="Past its review interval: confirm it is still true, or change it.">
      <CalendarClock aria-hidden />
      Needs re-verification
    </Badge>
  );
}
