import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { canonicalAnswers as ca } from '../../db/schema';
import type { TenantCtx, UserCtx } from '../../context';
import { inTenant } from '../../tenancy';
import type { LibraryFreshness } from '../../../common/schemas/admin';

const DAY_MS = 24 * 3600_000;

/**
 * PRODUCT §5 freshness: an approved entry is trusted for `review_interval_days` after it was last verified (or
 * created, when nobody ever verified it); past that it needs re-verification. Drafts and archived entries are
 * never stale: the engine does not present them as the organization's approved word.
 */
export const isStale: SQL = sql`(${ca.status} = 'approved' and coalesce(${ca.lastVerifiedAt}, ${ca.createdAt}) + make_interval(days => ${ca.reviewIntervalDays}) < now())`;

type FreshnessFields = { status: string; lastVerifiedAt: Date | null; createdAt: Date; reviewIntervalDays: number };

/** The moment an approved entry needs re-verification; null for drafts and archived entries. */
export function verifyBy(entry: FreshnessFields): Date | null {
  if (entry.status !== 'approved') return null;
  return new Date((entry.lastVerifiedAt ?? entry.createdAt).getTime() + entry.reviewIntervalDays * DAY_MS);
}

/** The JS twin of `isStale`, for presenting an entry already loaded. */
export function needsReverification(entry: FreshnessFields, now = new Date()): boolean {
  const due = verifyBy(entry);
  return due !== null && due.getTime() < now.getTime();
}

/**
 * Which of these entries of the workspace need re-verification: assessment review flags answers drawn from them.
 * Ids of other tenants, deleted entries or drafts are simply not in the set.
 */
export async function staleEntryIds(ctx: TenantCtx, ids: string[]): Promise<Set<string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Set();
  const rows = await ctx.db
    .select({ id: ca.id })
    .from(ca)
    .where(and(inTenant(ca, ctx), inArray(ca.id, unique), isStale));
  return new Set(rows.map((r) => r.id));
}

/**
 * The analytics tab's freshness figure over the organization's approved entries (every workspace): how many are
 * within their review interval, as a share of all approved entries (null when there are none).
 */
export async function libraryFreshness(ctx: UserCtx): Promise<LibraryFreshness> {
  const [row] = await ctx.db
    .select({
      approved: sql<number>`cast(count(*) as int)`,
      stale: sql<number>`cast(count(*) filter (where ${isStale}) as int)`,
    })
    .from(ca)
    .where(and(eq(ca.organizationId, ctx.organizationId), eq(ca.status, 'approved')));
  const approved = Number(row?.approved ?? 0);
  const needsReverification = Number(row?.stale ?? 0);
  return {
    approvedEntries: approved,
    needsReverification,
    freshRate: approved > 0 ? Math.round(((approved - needsReverification) / approved) * 1000) / 10 : null,
  };
}
