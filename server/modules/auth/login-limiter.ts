import { and, count, eq, gt, lt } from 'drizzle-orm';
import { loginFailures } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/errors';

const WINDOW_MS = 60_000;
const MAX_FAILURES = 10;

/**
 * One key per account (when the name or e-mail resolves to one) and IP, so signing in by username and by e-mail
 * share one budget. Kept in the database so every API process on one PostgreSQL shares the same count.
 */
export function limiterKey(account: { userId?: string; name: string }, ip: string): string {
  return account.userId ? `user:${account.userId}|${ip}` : `name:${account.name.trim().toLowerCase()}|${ip}`;
}

/**
 * Records the attempt *before* the password is checked, then counts: parallel guesses each see the others'
 * rows, so a burst cannot slip past the limit while argon2 runs. A successful sign-in clears the key.
 */
export async function recordAttemptOrLimit(db: DbOrTx, key: string): Promise<void> {
  await db.insert(loginFailures).values({ key });
  const [row] = await db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.key, key), gt(loginFailures.failedAt, new Date(Date.now() - WINDOW_MS))));
  // Old rows are useless after the window; trimming here keeps the table small without a scheduler.
  await db.delete(loginFailures).where(lt(loginFailures.failedAt, new Date(Date.now() - 10 * WINDOW_MS)));
  if ((row?.n ?? 0) > MAX_FAILURES) {
    throw new AppError(429, 'rate_limited', 'Too many failed sign-in attempts. Wait a minute and try again.');
  }
}

export async function clearAttempts(db: DbOrTx, key: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
}
