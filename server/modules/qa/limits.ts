import { and, eq, lt, sql } from 'drizzle-orm';
import { qaInflight, qaUsage } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import type { UserCtx } from '../../context';
import type { Config } from '../../config';
import { RateLimited } from '../../errors';

export type QaLimits = Config['qa'];

type Rows<T> = { rows: T[] };
/** What the database counted for a user and their organization: questions this minute, requests in flight. */
type Counts = {
  userQuestions: number;
  orgQuestions: number;
  userWait: number | null;
  orgWait: number | null;
  userBusy: number;
  orgBusy: number;
};

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * Runs `work` (answering `questions` questions for the caller) within what one user and one organization may ask
 * of the shared server — questions per minute and requests at once — else refuses with 429 and Retry-After before
 * doing anything. Counted in the database, not in memory, so every API process on one PostgreSQL enforces the
 * same budget; a refused request takes nothing from it, so a client that waits as told gets through.
 */
export async function withinQaLimits<T>(
  caller: UserCtx,
  limits: QaLimits,
  questions: number,
  work: () => Promise<T>,
): Promise<T> {
  // What this process alone has in flight is a lower bound of the shared count: past the limit here, a flood is
  // refused without costing the database anything.
  const local = earlyRefusal(caller, limits);
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
/** Until when (ms) a user or organization is past its questions a minute, as the database last said. */
const blockedUntil = new Map<string, { until: number; sentence: string }>();

/**
 * The refusal this process can give on its own, before the request's body is even read: past the in-flight limits
 * it sees by itself, or within the wait the database gave this user or organization a moment ago. A client that
 * re-sends a refused 100-question batch at once then costs a session look-up, not a 200 kB parse and four queries.
 */
export function earlyRefusal(caller: { organizationId: string; userId: string }, limits: QaLimits): RateLimited | null {
  const now = Date.now();
  for (const key of [`user:${caller.userId}`, `org:${caller.organizationId}`]) {
    const blocked = blockedUntil.get(key);
    if (!blocked) continue;
    if (blocked.until > now) return perMinute(blocked.sentence, Math.max(1, Math.ceil((blocked.until - now) / 1000)));
    blockedUntil.delete(key);
  }
  return localRefusal(caller, limits);
}

function localRefusal(c: { organizationId: string; userId: string }, limits: QaLimits): RateLimited | null {
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
 * Counts and records in one statement: the request's rows are written only when it fits, so a refused request
 * never exists for anyone else's count (a burst does not refuse itself as a whole) and no lock is held (which
 * would keep a pooled connection per waiting request). Requests counted at the very same moment may both fit
 * where only one should: the limits can be passed by the few requests that arrive together, never more.
 */
async function admit(c: UserCtx, limits: QaLimits, questions: number): Promise<number> {
  const fits = sql`used.user_questions + ${questions} <= ${limits.questionsPerMinutePerUser}
    and used.org_questions + ${questions} <= ${limits.questionsPerMinutePerOrg}
    and busy.user_busy < ${limits.concurrentPerUser} and busy.org_busy < ${limits.concurrentPerOrg}`;
  const res = (await c.db.execute(sql`
    with used as (
      select
        coalesce(sum(questions) filter (where user_id = ${c.userId}), 0)::int as user_questions,
        coalesce(sum(questions), 0)::int as org_questions,
        extract(epoch from (min(at) filter (where user_id = ${c.userId}) + interval '1 minute' - now()))::float8
          as user_wait,
        extract(epoch from (min(at) + interval '1 minute' - now()))::float8 as org_wait
      from qa_usage where organization_id = ${c.organizationId} and at > now() - interval '1 minute'
    ), busy as (
      select count(*) filter (where user_id = ${c.userId})::int as user_busy, count(*)::int as org_busy
      from qa_inflight where organization_id = ${c.organizationId} and expires_at > now()
    ), counted as (
      insert into qa_usage (organization_id, user_id, questions)
      select ${c.organizationId}, ${c.userId}, ${questions} from used, busy where ${fits}
      returning id
    ), slot as (
      insert into qa_inflight (organization_id, user_id, expires_at)
      select ${c.organizationId}, ${c.userId}, now() + interval '5 minutes' from used, busy where ${fits}
      returning id
    )
    select used.user_questions as "userQuestions", used.org_questions as "orgQuestions", used.user_wait as "userWait",
      used.org_wait as "orgWait", busy.user_busy as "userBusy", busy.org_busy as "orgBusy",
      (select id from slot) as slot, (select id from counted) as counted
    from used, busy`)) as Rows<Counts & { slot: string | number | null; counted: string | number | null }>;
  const r = res.rows[0];
  if (!r) throw new Error('the limits query returned no row');
  if (r.slot !== null && r.slot !== undefined) {
    // Rows past the window (or of a process that died mid-request) only slow the counts down.
    if (Number(r.counted) % 20 === 0) await trim(c.db, c.organizationId);
    return Number(r.slot);
  }
  // The counts are without this request: refusalOf sees it as the next one.
  const refusal =
    refusalOf(
      {
        ...r,
        userQuestions: r.userQuestions + questions,
        orgQuestions: r.orgQuestions + questions,
        userBusy: r.userBusy + 1,
        orgBusy: r.orgBusy + 1,
      },
      limits,
    ) ??
    // Not reached: the counts that kept the request out are the ones refusalOf reads. Kept so the type is honest.
    new RateLimited('Too many questions at once. Wait a moment and try again.', 1);
  // A per-minute budget used up even without this request: until the wait is over nothing more of that user (or
  // organization) fits, so this process can say so itself. (A batch too big for what is left is not such a case.)
  const spent =
    r.userQuestions >= limits.questionsPerMinutePerUser
      ? { key: `user:${c.userId}`, sentence: userSentence(limits) }
      : r.orgQuestions >= limits.questionsPerMinutePerOrg
        ? { key: `org:${c.organizationId}`, sentence: orgSentence(limits) }
        : null;
  if (spent) {
    if (blockedUntil.size > 10_000) blockedUntil.clear();
    blockedUntil.set(spent.key, { until: Date.now() + refusal.retryAfterSeconds * 1000, sentence: spent.sentence });
  }
  throw refusal;
}

/** A per-minute refusal: what the limit is, and how long to wait. */
function perMinute(sentence: string, seconds: number): RateLimited {
  return new RateLimited(`${sentence} Wait ${plural(seconds, 'second', 'seconds')} and try again.`, seconds);
}

function refusalOf(r: Counts, limits: QaLimits): RateLimited | null {
  const wait = (seconds: number | null) => Math.max(1, Math.ceil(seconds ?? 60));
  if (r.userQuestions > limits.questionsPerMinutePerUser) return perMinute(userSentence(limits), wait(r.userWait));
  if (r.orgQuestions > limits.questionsPerMinutePerOrg) return perMinute(orgSentence(limits), wait(r.orgWait));
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

const userSentence = (limits: QaLimits) =>
  `You can ask up to ${plural(limits.questionsPerMinutePerUser, 'question', 'questions')} a minute.`;
const orgSentence = (limits: QaLimits) =>
  `Your organization can ask up to ${plural(limits.questionsPerMinutePerOrg, 'question', 'questions')} a minute.`;

async function trim(db: DbOrTx, organizationId: string): Promise<void> {
  await db
    .delete(qaUsage)
    .where(and(eq(qaUsage.organizationId, organizationId), lt(qaUsage.at, sql`now() - interval '1 minute'`)));
  await db
    .delete(qaInflight)
    .where(and(eq(qaInflight.organizationId, organizationId), lt(qaInflight.expiresAt, sql`now()`)));
}
