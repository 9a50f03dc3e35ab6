import type { TenantCtx } from '../../http/context';
import type { OrganizationStats } from '../../../common/schemas/organizations';
import { countLiveAnswers } from '../knowledge/service';
import { countOpenConflicts } from '../knowledge/hygiene';
import { countDocuments } from '../documents/service';
import { countMonthlyQueries } from '../qa/service';

/**
 * Real counts for the current workspace. Tasks arrive with their own issues; until their
 * tables exist they count 0, and each issue adds its count here.
 */
export async function organizationStats(ctx: TenantCtx): Promise<OrganizationStats> {
  const [canonicalCount, openConflicts, documentCount, monthlyQueries] = await Promise.all([
    countLiveAnswers(ctx),
    countOpenConflicts(ctx),
    countDocuments(ctx),
    countMonthlyQueries(ctx),
  ]);
  return { canonicalCount, documentCount, monthlyQueries, pendingTasks: 0, openConflicts };
}
