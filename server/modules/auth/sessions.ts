import { and, asc, desc, eq, gt, lt, ne, or, sql } from 'drizzle-orm';
import { authSessions, users } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { hashToken, newToken } from '../../tokens';
import type { SessionUser } from '../../context';
import { normalizeRole } from '../../../common/roles';

/** Activity timestamps are written at most this often, so a busy user does not turn every read into a write. */
const TOUCH_EVERY_MS = 60_000;

/** Creates a session and returns the cookie value (only its hash is stored). */
export async function createSession(
  db: DbOrTx,
  user: { id: string; organizationId: string },
  meta: { ttlMs: number; ip?: string; userAgent?: string },
): Promise<string> {
  const token = newToken();
  await db.insert(authSessions).values({
    idHash: hashToken(token),
    userId: user.id,
    organizationId: user.organizationId,
    expiresAt: new Date(Date.now() + meta.ttlMs),
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  await db.update(users).set({ lastActiveAt: new Date() }).where(eq(users.id, user.id));
  return token;
}

/**
 * The live session's user, or null: unknown, past its absolute expiry, unused for `idleMs` (its last request was
 * that long ago; `last_seen_at` moves at most once a minute, so the idle limit is exact to about a minute), or the
 * user was removed.
 */
export async function findSession(db: DbOrTx, token: string, opts: { idleMs: number }): Promise<SessionUser | null> {
  const idHash = hashToken(token);
  const now = Date.now();
  const [row] = await db
    .select({
      userId: users.id,
      organizationId: users.organizationId,
      role: users.role,
      username: users.username,
      lastSeenAt: authSessions.lastSeenAt,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(
      and(
        eq(authSessions.idHash, idHash),
        gt(authSessions.expiresAt, new Date(now)),
        gt(authSessions.lastSeenAt, new Date(now - opts.idleMs)),
        sql`${users.deletedAt} is null`,
      ),
    )
    .limit(1);
  if (!row) return null;
  if (now - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    const seen = new Date(now);
    await db.update(authSessions).set({ lastSeenAt: seen }).where(eq(authSessions.idHash, idHash));
    await db.update(users).set({ lastActiveAt: seen }).where(eq(users.id, row.userId));
  }
  return {
    userId: row.userId,
    organizationId: row.organizationId,
    role: normalizeRole(row.role),
    username: row.username,
    sessionHash: idHash,
  };
}

export async function deleteSessionByToken(db: DbOrTx, token: string): Promise<void> {
  await db.delete(authSessions).where(eq(authSessions.idHash, hashToken(token)));
}

/** Ends every session of a user, except optionally the one making the request. Returns how many ended. */
export async function deleteUserSessions(db: DbOrTx, userId: string, exceptHash?: string): Promise<number> {
  const deleted = await db
    .delete(authSessions)
    .where(
      exceptHash
        ? and(eq(authSessions.userId, userId), ne(authSessions.idHash, exceptHash))
        : eq(authSessions.userId, userId),
    )
    .returning({ userId: authSessions.userId });
  return deleted.length;
}

/** The user's live sessions (neither expired nor idle), most recently used first. */
export function listUserSessions(db: DbOrTx, userId: string, opts: { idleMs: number }) {
  return db
    .select()
    .from(authSessions)
    .where(
      and(
        eq(authSessions.userId, userId),
        gt(authSessions.expiresAt, new Date()),
        gt(authSessions.lastSeenAt, new Date(Date.now() - opts.idleMs)),
      ),
    )
    .orderBy(desc(authSessions.lastSeenAt), desc(authSessions.createdAt), asc(authSessions.idHash));
}

export async function purgeExpiredSessions(db: DbOrTx, opts: { idleMs: number }): Promise<void> {
  await db
    .delete(authSessions)
    .where(or(lt(authSessions.expiresAt, new Date()), lt(authSessions.lastSeenAt, new Date(Date.now() - opts.idleMs))));
}
