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
