import type { TenantCtx } from '../../context';
import type { OrganizationStats } from '../../../common/schemas/organizations';
import { countLiveAnswers } from '../knowledge/service';
import { countOpenConflicts } from '../knowledge/hygiene';
import { countDocuments } from '../documents/service';
import { countMonthlyQueries } from '../qa/service';
import { countOpenTasks } from '../qa/tasks';

/**
 * Real counts for the current workspace. pendingTasks counts everyone's open tasks, whoever asks: the stat is the
 * organization's, while GET /api/qa/tasks lists only their own to users who see only their own history.
 */
export async function organizationStats(ctx: TenantCtx): Promise<OrganizationStats> {
  const [canonicalCount, openConflicts, documentCount, monthlyQueries, pendingTasks] = await Promise.all([
    countLiveAnswers(ctx),
    countOpenConflicts(ctx),
    countDocuments(ctx),
    countMonthlyQueries(ctx),
    countOpenTasks(ctx),
  ]);
  return { canonicalCount, documentCount, monthlyQueries, pendingTasks, openConflicts };
}
