import { Badge, type BadgeVariant } from '../../../components/ui/badge';
import { formatLabel } from '../../../lib/format';
import type { PendingTask } from '../api/get-pending-tasks';

/** PRODUCT §12 priority colours: high red, medium amber, other grey. */
const PRIORITY_VARIANTS: Record<PendingTask['priority'], BadgeVariant> = {
  high: 'destructive',
  medium: 'warning',
  low: 'secondary',
};

export function PriorityBadge({ priority }: { priority: PendingTask['priority'] }) {
  return <Badge variant={PRIORITY_VARIANTS[priority]}>{formatLabel(priority)} priority</Badge>;
}
