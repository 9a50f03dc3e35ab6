import { and, count, desc, eq } from 'drizzle-orm';
import { auditLogs, users } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export type AuditEntry = {
  organizationId: string;
  userId: string | null;
  workspaceId?: string | null;
  action: string;
  entityType: string;
  entityId?: string | null;
  details?: Record<string, unknown> | null;
};

/** Writes one audit row. Call it inside the mutation's transaction so the trail and the change land together. */
export async function writeAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLogs).values({
    organizationId: entry.organizationId,
    userId: entry.userId,
    workspaceId: entry.workspaceId ?? null,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId ?? null,
    details: entry.details ?? null,
  });
}

/** Shorthand for a signed-in caller's mutation. */
export function audit(
  ctx: { db: DbOrTx; organizationId: string; userId: string; workspaceId?: string },
  action: string,
  entityType: string,
  entityId: string | null,
  details?: Record<string, unknown>,
): Promise<void> {
  return writeAudit(ctx.db, {
    organizationId: ctx.organizationId,
    userId: ctx.userId,
    workspaceId: ctx.workspaceId ?? null,
    action,
    entityType,
    entityId,
    details: details ?? null,
  });
}

/** Newest first, one organization only. */
export async function listAuditLogs(
  ctx: { db: DbOrTx; organizationId: string },
  paging: { limit: number; offset: number },
) {
  const where = eq(auditLogs.organizationId, ctx.organizationId);
  const rows = await ctx.db
    .select({
      id: auditLogs.id,
      action: auditLogs.action,
      userId: auditLogs.userId,
      username: users.username,
      entityType: auditLogs.entityType,
      entityId: auditLogs.entityId,
      details: auditLogs.details,
      createdAt: auditLogs.createdAt,
    })
    .from(auditLogs)
    .leftJoin(users, and(eq(users.id, auditLogs.userId), eq(users.organizationId, auditLogs.organizationId)))
    .where(where)
    .orderBy(desc(auditLogs.seq))
    .limit(paging.limit)
    .offset(paging.offset);
  const [total] = await ctx.db.select({ n: count() }).from(auditLogs).where(where);
  return { rows, total: total?.n ?? 0 };
}
