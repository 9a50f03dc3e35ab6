import type { TenantCtx } from '../../http/context';
import type { OrganizationStats } from '../../../common/schemas/organizations';
import { countLiveAnswers } from '../knowledge/service';
import { countOpenConflicts } from '../knowledge/hygiene';

/**
 * Real counts for the current workspace. Documents, questions and tasks arrive with their own issues; until their
 * tables exist they count 0, and each issue adds its count here.
 */
export async function organizationStats(ctx: TenantCtx): Promise<OrganizationStats> {
  const [canonicalCount, openConflicts] = await Promise.all([countLiveAnswers(ctx), countOpenConflicts(ctx)]);
  return { canonicalCount, documentCount: 0, monthlyQueries: 0, pendingTasks: 0, openConflicts };
}
