import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { and, desc, eq, gte, type SQL } from 'drizzle-orm';
import { qaEntries, qaTaskDismissals, users } from '../../db/schema';
import { inTransaction } from '../../db/client';
import { libraryAnswers, libraryIndex, type LibraryIndex } from '../../engine/answer';
import { normalizeQuestion } from '../../../common/import/normalize';
import type { TaskPriority, TaskView } from '../../../common/schemas/qa';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';
import { notFound } from '../../errors';
import { audit } from '../audit/service';
import { askedInChat, seesAllHistory } from './service';

/*
 * Open tasks (PRODUCT §7 Task): questions asked in the chat that the workspace answered 'Needs Review', one per
 * question however often it was asked, less those the library answers now, small talk ("hi", "thanks") and those
 * dismissed since they were last asked. A bulk assessment's questions are reviewed in the assessment, not here. History keeps each question with the answer it got when asked, so
 * "answered since" can only be known by asking the library again — in memory, with the engine's own index and
 * ranker, never one query per task.
 *
 * The work is bounded so the stats endpoint (polled every 30 s) stays cheap on a busy workspace: only the last
 * TASK_WINDOW_DAYS of history, at most MAX_ASKINGS unanswered askings (newest first) and at most MAX_QUESTIONS
 * distinct questions are looked at. Older or further questions are not tasks, and askCount counts askings inside
 * those bounds only.
 */
const TASK_WINDOW_DAYS = 90;
const MAX_ASKINGS = 5_000;
const MAX_QUESTIONS = 2_000;
const DAY_MS = 24 * 3600_000;

/**
 * Whether the library answers a question, per library index. libraryIndex() hands out the same object until the
 * library changes, so a decision stays right exactly as long as its index lives; a WeakMap lets both go together.
 * Without it every stats poll would rank every open question again.
 */
const decisions = new WeakMap<LibraryIndex, Map<string, boolean>>();
/** Decisions kept per index: enough for every question one listing looks at, with room for questions asked since. */
const MAX_DECISIONS = 2 * MAX_QUESTIONS;

type OpenTask = {
  id: string;
  title: string;
  assignee: string | null;
  askedAt: Date;
  askCount: number;
  /** Askings within the last RECENT_DAYS. */
  recentCount: number;
};

/** Words of greetings, thanks and acknowledgements: a message made of these only is not a question to answer. */
const SMALL_TALK = new Set(
  (
    'hi hii hello hey heya hiya yo howdy greetings there all everyone team folks good morning afternoon evening ' +
    'night day thanks thank thx ty you so much very many a lot cheers ok okay k kk cool great nice perfect awesome ' +
    'fine sure got it bye goodbye see ya later yes no yep yeah nope please welcome lol test testing'
  ).split(' '),
);

/** "hi", "Thank you very much.", "ok": small talk, never a task. */
function isSmallTalk(key: string): boolean {
  const words = key.split(' ').filter(Boolean);
  return words.length > 0 && words.length <= 6 && words.every((word) => SMALL_TALK.has(word));
}

/**
 * Repeats of a question, told apart only by case, spacing or punctuation ("Do you use SSO?" / "do you use sso"):
 * the library's own sameness rule. A question of punctuation only ("???") keeps its own text as its key.
 */
function questionKey(question: string): string {
  return normalizeQuestion(question) || question;
}

function decisionsOf(index: LibraryIndex): Map<string, boolean> {
  let known = decisions.get(index);
  if (!known) {
    known = new Map();
    decisions.set(index, known);
  }
  return known;
}

/**
 * Ranking costs about what one ask's library lookup costs (up to a few ms on a 10,000-entry library whose entries
 * share common words), so after a library change the first listing may rank up to MAX_QUESTIONS questions again.
 * Yielding between batches keeps the server answering other requests meanwhile; concurrent listings share the
 * decisions map, so they split the work rather than repeat it.
 */
const RANKINGS_PER_TURN = 50;

async function stillOpen(index: LibraryIndex, tasks: OpenTask[]): Promise<OpenTask[]> {
  const known = decisionsOf(index);
  const open: OpenTask[] = [];
  let ranked = 0;
  for (const task of tasks) {
    let answered = known.get(task.title);
    if (answered === undefined) {
      if (ranked > 0 && ranked % RANKINGS_PER_TURN === 0) await yieldToEventLoop();
      ranked += 1;
      // Another listing may have decided it while this one waited.
      answered = known.get(task.title) ?? libraryAnswers(index, task.title);
      if (known.size >= MAX_DECISIONS) known.clear();
      known.set(task.title, answered);
    }
    if (!answered) open.push(task);
  }
  return open;
}

/** "Recently" for priorities: a question asked within this many days has someone waiting on it now. */
const RECENT_DAYS = 7;

/**
 * The more often a question comes back, and the more recently, the more askers wait on its answer (PRODUCT §7):
 * high when asked three times or more, or twice within RECENT_DAYS; medium when asked twice, or once within
 * RECENT_DAYS; low when asked once, longer ago.
 */
function priorityOf(task: Pick<OpenTask, 'askCount' | 'recentCount'>): TaskPriority {
  if (task.askCount >= 3 || task.recentCount >= 2) return 'high';
  if (task.askCount === 2 || task.recentCount === 1) return 'medium';
  return 'low';
}

/** When each question (by its key) was last dismissed in the workspace, for those inside the task window. */
async function dismissals(ctx: TenantCtx, since: Date): Promise<Map<string, Date>> {
  const rows = await ctx.db
    .select({ key: qaTaskDismissals.questionKey, at: qaTaskDismissals.dismissedAt })
    .from(qaTaskDismissals)
    .where(and(inTenant(qaTaskDismissals, ctx), gte(qaTaskDismissals.dismissedAt, since)));
  return new Map(rows.map((row) => [row.key, row.at] as const));
}

const PRIORITY_ORDER: Record<TaskPriority, number> = { high: 0, medium: 1, low: 2 };

/** Open tasks of the workspace (everyone's with `seeAll`, else the caller's own), highest priority then latest first. */
async function openTasks(ctx: TenantCtx, seeAll: boolean): Promise<OpenTask[]> {
  const since = new Date(Date.now() - TASK_WINDOW_DAYS * DAY_MS);
  const recentSince = Date.now() - RECENT_DAYS * DAY_MS;
  const conditions: SQL[] = [
    inTenant(qaEntries, ctx),
    eq(qaEntries.answerType, 'unknown'),
    gte(qaEntries.createdAt, since),
    askedInChat(ctx),
  ];
  if (!seeAll) conditions.push(eq(qaEntries.userId, ctx.userId));
  const rows = await ctx.db
    .select({
      id: qaEntries.id,
      question: qaEntries.question,
      createdAt: qaEntries.createdAt,
      username: users.username,
    })
    .from(qaEntries)
    .leftJoin(users, eq(users.id, qaEntries.userId))
    .where(and(...conditions))
    .orderBy(desc(qaEntries.createdAt), desc(qaEntries.id))
    .limit(MAX_ASKINGS);

  const dismissed = await dismissals(ctx, since);
  // Newest first, so the first asking of each question seen is its latest.
  const byQuestion = new Map<string, OpenTask>();
  for (const row of rows) {
    const key = questionKey(row.question);
    const recent = row.createdAt.getTime() >= recentSince ? 1 : 0;
    const task = byQuestion.get(key);
    if (task) {
      task.askCount += 1;
      task.recentCount += recent;
    } else if (byQuestion.size < MAX_QUESTIONS && !isSmallTalk(key))
      byQuestion.set(key, {
        id: row.id,
        title: row.question,
        assignee: row.username,
        askedAt: row.createdAt,
        askCount: 1,
        recentCount: recent,
      });
  }
  for (const [key, task] of byQuestion) {
    const at = dismissed.get(key);
    // Dismissed after its latest asking; asked again since, it is a task again.
    if (at && at.getTime() >= task.askedAt.getTime()) byQuestion.delete(key);
  }
  if (byQuestion.size === 0) return [];

  const open = await stillOpen(await libraryIndex(ctx), [...byQuestion.values()]);
  return open.sort(
    (a, b) =>
      PRIORITY_ORDER[priorityOf(a)] - PRIORITY_ORDER[priorityOf(b)] || b.askedAt.getTime() - a.askedAt.getTime(),
  );
}

function presentTask(task: OpenTask): TaskView {
  return {
    id: task.id,
    title: task.title,
    priority: priorityOf(task),
    assignee: task.assignee,
    askedAt: task.askedAt.toISOString(),
    askCount: task.askCount,
  };
}

/** One page of open tasks and how many there are in all (for X-Total-Count). */
export async function listTasks(ctx: TenantCtx, page: { limit: number; offset: number }) {
  const tasks = await openTasks(ctx, seesAllHistory(ctx));
  return { tasks: tasks.slice(page.offset, page.offset + page.limit).map(presentTask), total: tasks.length };
}

/** Open tasks of everyone in the workspace (organization stats' pendingTasks). */
export async function countOpenTasks(ctx: TenantCtx): Promise<number> {
  return (await openTasks(ctx, true)).length;
}

/**
 * Dismisses the task whose latest asking is `entryId` (a Needs Review answer the caller may see), for the whole
 * workspace, until the question is asked again. Dismissing it again changes nothing that matters.
 */
export async function dismissTask(ctx: TenantCtx, entryId: string): Promise<void> {
  const conditions: SQL[] = [inTenant(qaEntries, ctx), eq(qaEntries.id, entryId), eq(qaEntries.answerType, 'unknown')];
  if (!seesAllHistory(ctx)) conditions.push(eq(qaEntries.userId, ctx.userId));
  const [entry] = await ctx.db
    .select({ question: qaEntries.question })
    .from(qaEntries)
    .where(and(...conditions));
  if (!entry) throw notFound('Task');
  const key = questionKey(entry.question);
  const now = new Date();
  await inTransaction(ctx.db, async (tx) => {
    await tx
      .insert(qaTaskDismissals)
      .values({
        organizationId: ctx.organizationId,
        workspaceId: ctx.workspaceId,
        questionKey: key,
        dismissedBy: ctx.userId,
        dismissedAt: now,
      })
      .onConflictDoUpdate({
        target: [qaTaskDismissals.workspaceId, qaTaskDismissals.questionKey],
        set: { dismissedBy: ctx.userId, dismissedAt: now },
      });
    await audit({ ...ctx, db: tx }, 'qa_task_dismissed', 'qa_entry', entryId, { key, question: entry.question });
  });
}
