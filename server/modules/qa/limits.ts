import { and, eq, lt, sql } from 'drizzle-orm';
import { qaInflight, qaUsage } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
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
  // What this process alone has in flight is a lower bound of the shared count: past the limit here, a flood is
  // refused without costing the database anything.
  const local = localRefusal(caller, limits);
  if (local) throw local;
  const slot = await admit(caller, limits, questions);
  const keys = [`user:${caller.userId}`, `org:${caller.organizationId}`];
  for (const k of keys) inFlightHere.set(k, (inFlightHere.get(k) ?? 0) + 1);
  try {
    return await work();
  } finally {
    for (const k of keys) {
      const n = (inFlightHere.get(k) ?? 1) - 1;
      if (n > 0) inFlightHere.set(k, n);
      else inFlightHere.delete(k);
    }
    await caller.db.delete(qaInflight).where(eq(qaInflight.id, slot));
  }
}

/** Requests this process is answering, per user and organization. */
const inFlightHere = new Map<string, number>();

function localRefusal(c: Caller, limits: QaLimits): RateLimited | null {
  return refusalOf(
    {
      userQuestions: 0,
      orgQuestions: 0,
      userWait: null,
      orgWait: null,
      userBusy: (inFlightHere.get(`user:${c.userId}`) ?? 0) + 1,
      orgBusy: (inFlightHere.get(`org:${c.organizationId}`) ?? 0) + 1,
    },
    limits,
  );
}

/**
 * Records the request first, then counts only what arrived before it (the rows' ids are in order of arrival): of
 * a burst of parallel requests the first ones up to the limit get through and the rest are refused, without a lock
 * (which would hold a pooled connection per waiting request) and without the burst refusing itself as a whole.
 */
async function admit(c: Caller, limits: QaLimits, questions: number): Promise<number> {
  const [usage] = await c.db
    .insert(qaUsage)
    .values({ organizationId: c.organizationId, userId: c.userId, questions })
    .returning({ id: qaUsage.id });
  const [slot] = await c.db
    .insert(qaInflight)
    .values({ organizationId: c.organizationId, userId: c.userId, expiresAt: sql`now() + interval '5 minutes'` })
    .returning({ id: qaInflight.id });
  if (!usage || !slot) throw new Error('insert returned no row');
  const res = (await c.db.execute(sql`
    with used as (
      select user_id, questions, at from qa_usage
      where organization_id = ${c.organizationId} and at > now() - interval '1 minute' and id <= ${usage.id}
    ), busy as (
      select user_id from qa_inflight
      where organization_id = ${c.organizationId} and expires_at > now() and id <= ${slot.id}
    )
    select
      (select coalesce(sum(questions), 0) from used where user_id = ${c.userId})::int as "userQuestions",
      (select coalesce(sum(questions), 0) from used)::int as "orgQuestions",
      (select extract(epoch from (min(at) + interval '1 minute' - now())) from used where user_id = ${c.userId})::float8
        as "userWait",
      (select extract(epoch from (min(at) + interval '1 minute' - now())) from used)::float8 as "orgWait",
      (select count(*) from busy where user_id = ${c.userId})::int as "userBusy",
      (select count(*) from busy)::int as "orgBusy"`)) as Rows<{
    userQuestions: number;
    orgQuestions: number;
    userWait: number | null;
    orgWait: number | null;
    userBusy: number;
    orgBusy: number;
  }>;
  const r = res.rows[0];
  const refusal = r ? refusalOf(r, limits) : null;
  if (!refusal) {
    // Rows past the window (or of a process that died mid-request) only slow the counts down.
    if (usage.id % 20 === 0) await trim(c.db, c.organizationId);
    return slot.id;
  }
  await c.db.delete(qaUsage).where(eq(qaUsage.id, usage.id));
  await c.db.delete(qaInflight).where(eq(qaInflight.id, slot.id));
  throw refusal;
}

function refusalOf(
  r: {
    userQuestions: number;
    orgQuestions: number;
    userWait: number | null;
    orgWait: number | null;
    userBusy: number;
    orgBusy: number;
  },
  limits: QaLimits,
): RateLimited | null {
  const wait = (seconds: number | null) => Math.max(1, Math.ceil(seconds ?? 60));
  if (r.userQuestions > limits.questionsPerMinutePerUser) {
    const s = wait(r.userWait);
    return new RateLimited(
      `You can ask up to ${plural(limits.questionsPerMinutePerUser, 'question', 'questions')} a minute. ` +
        `Wait ${plural(s, 'second', 'seconds')} and try again.`,
      s,
    );
  }
  if (r.orgQuestions > limits.questionsPerMinutePerOrg) {
    const s = wait(r.orgWait);
    return new RateLimited(
      `Your organization can ask up to ${plural(limits.questionsPerMinutePerOrg, 'question', 'questions')} a ` +
        `minute. Wait ${plural(s, 'second', 'seconds')} and try again.`,
      s,
    );
  }
  if (r.userBusy > limits.concurrentPerUser) {
    return new RateLimited(
      `You already have ${plural(limits.concurrentPerUser, 'request', 'requests')} being answered. ` +
        'Wait for the answers and try again.',
      1,
    );
  }
  if (r.orgBusy > limits.concurrentPerOrg) {
    return new RateLimited(
      `Your organization already has ${plural(limits.concurrentPerOrg, 'request', 'requests')} being answered. ` +
        'Try again in a moment.',
      1,
    );
  }
  return null;
}

async function trim(db: DbOrTx, organizationId: string): Promise<void> {
  await db
    .delete(qaUsage)
    .where(and(eq(qaUsage.organizationId, organizationId), lt(qaUsage.at, sql`now() - interval '1 minute'`)));
  await db
    .delete(qaInflight)
    .where(and(eq(qaInflight.organizationId, organizationId), lt(qaInflight.expiresAt, sql`now()`)));
}
