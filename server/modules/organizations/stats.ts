import type { TenantCtx } from '../../http/context';
import type { OrganizationStats } from '../../../common/schemas/organizations';

/**
 * Real counts for the current workspace. Library, documents, questions, tasks and conflicts arrive with their
 * own issues; until their tables exist they count 0, and each issue adds its count here.
 */
export async function organizationStats(_ctx: TenantCtx): Promise<OrganizationStats> {
  return { canonicalCount: 0, documentCount: 0, monthlyQueries: 0, pendingTasks: 0, openConflicts: 0 };
}
