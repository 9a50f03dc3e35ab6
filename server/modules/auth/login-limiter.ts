import { and, count, eq, gt, lt } from 'drizzle-orm';
import { loginFailures } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';

/** How many attempts a key may make in a window, and the sentence the caller hears past that. */
export type AttemptLimit = { windowMs: number; max: number; message: string };

/** Sign-in: 10 failures a minute per account and IP. */
export const SIGN_IN_LIMIT: AttemptLimit = {
  windowMs: 60_000,
  max: 10,
  message: 'Too many failed sign-in attempts. Wait a minute and try again.',
};

/** Rows older than every window are useless; no limit may use a longer window than this. */
const RETENTION_MS = 2 * 3600_000;

/**
 * One key per account (when the name or e-mail resolves to one) and IP, so signing in by username and by e-mail
 * share one budget. Kept in the database so every API process on one PostgreSQL shares the same count.
 */
export function limiterKey(account: { userId?: string; name: string }, ip: string): string {
  return account.userId ? `user:${account.userId}|${ip}` : `name:${account.name.trim().toLowerCase()}|${ip}`;
}

/**
 * Records the attempt *before* the password is checked, then counts: parallel guesses each see the others'
 * rows, so a burst cannot slip past the limit while argon2 runs. A successful attempt clears the key. Other
 * attempt-limited actions (change-password, e-mail changes) use the same table under their own key prefix.
 */
export async function recordAttemptOrLimit(
  db: DbOrTx,
  key: string,
  limit: AttemptLimit = SIGN_IN_LIMIT,
): Promise<void> {
  if (limit.windowMs > RETENTION_MS) throw new Error('attempt window longer than the rows are kept');
  await db.insert(loginFailures).values({ key });
  const [row] = await db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.key, key), gt(loginFailures.failedAt, new Date(Date.now() - limit.windowMs))));
  // Trimming here keeps the table small without a scheduler.
  await db.delete(loginFailures).where(lt(loginFailures.failedAt, new Date(Date.now() - RETENTION_MS)));
  if ((row?.n ?? 0) > limit.max) throw new AppError(429, 'rate_limited', limit.message);
}

export async function clearAttempts(db: DbOrTx, key: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
}
