import { and, asc, count, desc, sql } from 'drizzle-orm';
import { canonicalAnswers as ca } from '../../db/schema';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';
import { filterConditions } from '../knowledge/queries';
import type { SearchLibraryOutput } from '../../../common/schemas/mcp';

/**
 * The Library screen's search (the same words-as-prefixes full-text match over approved and draft entries, see
 * filterConditions) with each entry's rank, which the screen does not need but an assistant choosing among
 * results does. The rank is mapped to 0–1 as ts_rank_cd's own normalization 32 does (rank / (rank + 1)).
 */
export async function searchLibrary(
  ctx: TenantCtx,
  query: string,
  limit: number,
): Promise<Omit<SearchLibraryOutput, 'workspaceId'>> {
  const { where, rank } = filterConditions({ q: query });
  const scope = where ? and(inTenant(ca, ctx), where) : inTenant(ca, ctx);
  const score = sql<number>`(${rank ?? sql`0`})::float8`;
  const rows = await ctx.db
    .select({
      id: ca.id,
      question: ca.question,
      answer: ca.answer,
      status: ca.status,
      tags: ca.tags,
      lastVerifiedAt: ca.lastVerifiedAt,
      updatedAt: ca.updatedAt,
      score,
    })
    .from(ca)
    .where(scope)
    .orderBy(desc(score), desc(ca.updatedAt), asc(ca.id))
    .limit(limit);
  const [total] = await ctx.db.select({ n: count() }).from(ca).where(scope);
  return {
    entries: rows.map((r) => {
      const rank = Number(r.score) || 0;
      return {
        id: r.id,
        question: r.question,
        answer: r.answer,
        // filterConditions keeps archived entries out unless asked for them.
        status: r.status === 'draft' ? 'draft' : 'approved',
        tags: r.tags,
        score: Math.round((rank / (rank + 1)) * 1000) / 1000,
        lastVerifiedAt: r.lastVerifiedAt ? r.lastVerifiedAt.toISOString() : null,
        updatedAt: r.updatedAt.toISOString(),
      };
    }),
    total: total?.n ?? 0,
  };
}
