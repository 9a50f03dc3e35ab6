import { and, asc, count, desc, eq, isNull } from 'drizzle-orm';
import { auditLogs, users } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import type { UserCtx } from '../../context';

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
  ctx: UserCtx & { workspaceId?: string },
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
    // What a token did is told apart from what its creator did in person.
    details: ctx.apiTokenId ? { ...details, apiTokenId: ctx.apiTokenId } : (details ?? null),
  });
}

/** Newest first, one organization only, optionally one action and/or one acting user (`system`: no user). */
export async function listAuditLogs(
  ctx: UserCtx,
  query: { limit: number; offset: number; action?: string; userId?: string },
) {
  const where = and(
    eq(auditLogs.organizationId, ctx.organizationId),
    query.action ? eq(auditLogs.action, query.action) : undefined,
    query.userId === 'system'
      ? isNull(auditLogs.userId)
      : query.userId
        ? eq(auditLogs.userId, query.userId)
        : undefined,
  );
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
    .limit(query.limit)
    .offset(query.offset);
  const [total] = await ctx.db.select({ n: count() }).from(auditLogs).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** An audit row as the API shows it (its time as an ISO string). */
export function presentAuditLog<R extends { createdAt: Date }>(row: R): Omit<R, 'createdAt'> & { createdAt: string } {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

/**
 * The audit log filters' choices: the actions the organization's trail holds and the users who acted, removed ones
 * included (their rows stay), so every row can be found again.
 */
export async function auditLogFilters(ctx: UserCtx) {
  const inOrg = eq(auditLogs.organizationId, ctx.organizationId);
  const actions = await ctx.db
    .selectDistinct({ action: auditLogs.action })
    .from(auditLogs)
    .where(inOrg)
    .orderBy(asc(auditLogs.action));
  const actors = await ctx.db
    .selectDistinct({ id: auditLogs.userId, username: users.username })
    .from(auditLogs)
    .leftJoin(users, and(eq(users.id, auditLogs.userId), eq(users.organizationId, auditLogs.organizationId)))
    .where(inOrg);
  const people = actors
    .flatMap((a) => (a.id ? [{ id: a.id, username: a.username }] : []))
    .sort((a, b) => (a.username ?? '').localeCompare(b.username ?? ''));
  return {
    actions: actions.map((a) => a.action),
    users: people,
    hasSystem: actors.some((a) => a.id === null),
  };
}
