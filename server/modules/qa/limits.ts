import { and, eq, lt, sql } from 'drizzle-orm';
import { qaInflight, qaUsage } from '../../db/schema';
import { inTransaction, type DbOrTx } from '../../db/client';
import type { Config } from '../../config';
import { RateLimited } from '../../http/errors';

export type QaLimits = Config['qa'];
type Caller = { db: DbOrTx; organizationId: string; userId: string };
type Rows<T> = { rows: T[] };

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * Runs `work` (answering `questions` questions for the caller) within what one user and one organization may ask
 * of the shared server — questions per minute and requests at once — else refuses with 429 and Retry-After before
 * doing anything. Counted in the database, not in memory, so every API process on one PostgreSQL enforces the
 * same budget; a refused request takes nothing from it, so a client that waits as told gets through.
 */
export async function withinQaLimits<T>(
  caller: Caller,
  limits: QaLimits,
  questions: number,
  work: () => Promise<T>,
): Promise<T> {
  const slot = await admit(caller, limits, questions);
  try {
    return await work();
  } finally {
    await caller.db.delete(qaInflight).where(eq(qaInflight.id, slot));
  }
}

/**
 * Counts and records in one transaction under a lock on the organization, so that parallel requests (in any
 * process) are admitted one after the other: never more than the limits, and never a burst refused as a whole.
 */
function admit(c: Caller, limits: QaLimits, questions: number): Promise<string> {
  return inTransaction(c.db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`qa-limits:${c.organizationId}`}))`);
    // Rows past the window (or of a process that died mid-request) only slow the counts down.
    await tx
      .delete(qaUsage)
      .where(and(eq(qaUsage.organizationId, c.organizationId), lt(qaUsage.at, sql`now() - interval '1 minute'`)));
    await tx
      .delete(qaInflight)
      .where(and(eq(qaInflight.organizationId, c.organizationId), lt(qaInflight.expiresAt, sql`now()`)));
    const usage = (await tx.execute(sql`
      select
        coalesce(sum(questions) filter (where user_id = ${c.userId}), 0)::int as "user",
        coalesce(sum(questions), 0)::int as org,
        extract(epoch from (min(at) filter (where user_id = ${c.userId}) + interval '1 minute' - now()))::float8
          as "userWait",
        extract(epoch from (min(at) + interval '1 minute' - now()))::float8 as "orgWait"
      from qa_usage where organization_id = ${c.organizationId}`)) as Rows<{
      user: number;
      org: number;
      userWait: number | null;
      orgWait: number | null;
    }>;
    const inflight = (await tx.execute(sql`
      select count(*) filter (where user_id = ${c.userId})::int as "user", count(*)::int as org
      from qa_inflight where organization_id = ${c.organizationId}`)) as Rows<{ user: number; org: number }>;
    const used = usage.rows[0];
    const busy = inflight.rows[0];
    const wait = (seconds: number | null | undefined) => Math.max(1, Math.ceil(seconds ?? 60));

    if ((used?.user ?? 0) + questions > limits.questionsPerMinutePerUser) {
      const s = wait(used?.userWait);
      throw new RateLimited(
        `You can ask up to ${plural(limits.questionsPerMinutePerUser, 'question', 'questions')} a minute. ` +
          `Wait ${plural(s, 'second', 'seconds')} and try again.`,
        s,
      );
    }
    if ((used?.org ?? 0) + questions > limits.questionsPerMinutePerOrg) {
      const s = wait(used?.orgWait);
      throw new RateLimited(
        `Your organization can ask up to ${plural(limits.questionsPerMinutePerOrg, 'question', 'questions')} a ` +
          `minute. Wait ${plural(s, 'second', 'seconds')} and try again.`,
        s,
      );
    }
    if ((busy?.user ?? 0) >= limits.concurrentPerUser) {
      throw new RateLimited(
        `You already have ${plural(limits.concurrentPerUser, 'request', 'requests')} being answered. ` +
          'Wait for the answers and try again.',
        1,
      );
    }
    if ((busy?.org ?? 0) >= limits.concurrentPerOrg) {
      throw new RateLimited(
        `Your organization already has ${plural(limits.concurrentPerOrg, 'request', 'requests')} being answered. ` +
          'Try again in a moment.',
        1,
      );
    }
    await tx.insert(qaUsage).values({ organizationId: c.organizationId, userId: c.userId, questions });
    const [slot] = await tx
      .insert(qaInflight)
      .values({
        organizationId: c.organizationId,
        userId: c.userId,
        expiresAt: sql`now() + interval '5 minutes'`,
      })
      .returning({ id: qaInflight.id });
    if (!slot) throw new Error('insert returned no row');
    return slot.id;
  });
}
