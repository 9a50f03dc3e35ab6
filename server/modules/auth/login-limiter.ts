import { and, count, eq, gt, lt } from 'drizzle-orm';
import { loginFailures } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../http/errors';

const WINDOW_MS = 60_000;
const MAX_FAILURES = 10;

/** Failures are kept in the database so every API process on one PostgreSQL shares the same count. */
export function limiterKey(username: string, ip: string): string {
  return `${username.trim().toLowerCase()}|${ip}`;
}

export async function assertNotLimited(db: DbOrTx, key: string): Promise<void> {
  const since = new Date(Date.now() - WINDOW_MS);
  const [row] = await db
    .select({ n: count() })
    .from(loginFailures)
    .where(and(eq(loginFailures.key, key), gt(loginFailures.failedAt, since)));
  if ((row?.n ?? 0) >= MAX_FAILURES) {
    throw new AppError(429, 'rate_limited', 'Too many failed sign-in attempts. Wait a minute and try again.');
  }
}

export async function recordFailure(db: DbOrTx, key: string): Promise<void> {
  await db.insert(loginFailures).values({ key });
  // Old rows are useless after the window; trimming here keeps the table small without a scheduler.
  await db.delete(loginFailures).where(lt(loginFailures.failedAt, new Date(Date.now() - 10 * WINDOW_MS)));
}

export async function clearFailures(db: DbOrTx, key: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
}
