import { and, count, desc, eq, gte, inArray, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import { assessmentBatches as ab, assessmentQuestions as aq, auditLogs, users } from '../../db/schema';
import { inTransaction, type Db, type Tx } from '../../db/client';
import type { TenantCtx } from '../../context';
import type { AppDeps } from '../../deps';
import { inTenant } from '../../tenancy';
import type { Mailer } from '../../mail/mailer';
import { quotedName, SUBJECT_NAME_MAX } from '../../mail/quoted-name';
import { POLICY } from '../../../common/policies';
import { today } from './presenters';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The assessment and its customer as labelled, quoted lines of their own, never inside one of Verity's sentences:
 * a name such as "Your account is locked. Sign in at …" then reads as the data it is.
 */
function assessmentLines(batch: { name: string; metadata: { customerName: string | null } }) {
  const customer = batch.metadata.customerName;
  return `Assessment: ${quotedName(batch.name, 200)}\n` + (customer ? `Customer: ${quotedName(customer, 200)}\n` : '');
}

/**
 * Tells a person they were given questions to answer. Sent after the assignment is saved and without holding up
 * the answer to the request: a mail relay that is down must not undo or delay an assignment (it is logged).
 */
export function notifyAssignment(
  deps: Pick<AppDeps, 'mailer' | 'config' | 'log'>,
  input: {
    assignee: { email: string; username: string };
    by: string;
    batch: { name: string; workspaceId: string; metadata: { customerName: string | null } };
    questions: number;
    dueOn: string | null;
  },
): void {
  const due = input.dueOn ? `, due ${input.dueOn}` : '';
  void deps.mailer
    .send({
      to: input.assignee.email,
      subject: `${plural(input.questions, 'question')} assigned to you in ${quotedName(input.batch.name, SUBJECT_NAME_MAX)}`,
      // `by` is a username: letters, digits and . _ - only (common/schemas/auth.ts), so it cannot carry a message.
      text:
        `${input.by} assigned you ${plural(input.questions, 'question')} of this assessment in Verity${due}:\n\n` +
        assessmentLines(input.batch) +
        `\nAnswer them, then submit them for review, in My questions:\n\n${myQuestionsUrl(deps.config.publicUrl, input.batch)}\n`,
    })
    .catch((err: unknown) => deps.log.warn({ err }, 'the assignment e-mail could not be sent'));
}

/** The audit trail's rows of questions of this assessment assigned to this person (the record of who and when). */
const assignmentsTo = (ctx: Pick<TenantCtx, 'organizationId'>, batchId: string, assigneeId: string) =>
  and(
    eq(auditLogs.organizationId, ctx.organizationId),
    eq(auditLogs.action, 'assessment_questions_assigned'),
    eq(auditLogs.entityId, batchId),
    sql`${auditLogs.details}->>'assigneeId' = ${assigneeId}`,
  );

/**
 * After an assignment mail, further assignments of the same assessment to the same person send none for this long:
 * one mail says where their questions are (My questions lists them all), and re-assigning twenty times in a minute
 * must not become twenty mails in their inbox.
 */
const ASSIGNMENT_MAIL_WINDOW_MINUTES = 10;

/**
 * Whether an assignment of this assessment to this person should be mailed: not if one was mailed in the window.
 * The audit trail is the record (the assignment's row says `mailed: true`), so the window holds across server
 * processes and restarts without a table of its own; any re-assignment in between (to nobody, to someone else and
 * back) counts as no fresh news. The assessment row is locked first, so two assignments at once cannot both find
 * no mail and both send one. Call it in the assignment's transaction, before writing its audit row.
 */
export async function shouldMailAssignment(
  tx: Tx,
  ctx: TenantCtx,
  batchId: string,
  assigneeId: string,
): Promise<boolean> {
  await tx
    .select({ id: ab.id })
    .from(ab)
    .where(and(inTenant(ab, ctx), eq(ab.id, batchId)))
    .for('update');
  // PostgreSQL reads the organization's audit rows through their (organization_id, seq) index and filters them:
  // fine at the pace people assign questions. An (organization_id, action, created_at) index would make it exact
  // for a very long trail; that is a migration, for when it is measured.
  const [mailed] = await tx
    .select({ id: auditLogs.id })
    .from(auditLogs)
    .where(
      and(
        assignmentsTo(ctx, batchId, assigneeId),
        gte(auditLogs.createdAt, sql`now() - make_interval(mins => ${ASSIGNMENT_MAIL_WINDOW_MINUTES})`),
        sql`${auditLogs.details}->>'mailed' = 'true'`,
      ),
    )
    .limit(1);
  return mailed === undefined;
}

/**
 * After a review mail about an assessment, further submits in it mail that reviewer none for this long. A contributor
 * works through a questionnaire one question at a time, often for most of an hour: the first mail says where the
 * answers wait (the review page lists them all, however many follow), and twenty submits must not become twenty
 * mails in a reviewer's inbox.
 */
export const REVIEW_MAIL_WINDOW_MINUTES = 60;

/** The roles that may approve an answer: only they are told that one waits for them. */
const APPROVER_ROLES: readonly string[] = POLICY['assessments:approve'];

export type Reviewer = { id: string; email: string; username: string };

/**
 * Who is e-mailed that an answer of this assessment waits for review, when the caller submits one. The first of
 * these who may approve (a member of the organization, not deleted or deactivated, whose role has
 * `assessments:approve`) and is not the submitter, who never reviews their own answer:
 * 1. whoever assigned the question to its assignee: they asked for the work. The question keeps no assigner of its
 *    own, the trail does: the latest `assessment_questions_assigned` row of the assessment naming that assignee;
 * 2. else the assessment's creator, who runs the questionnaire;
 * 3. else every manager and admin of the organization: every member sees every workspace, so each of them can
 *    approve it, and an answer nobody is told about would wait unseen.
 * Of those, whoever was already mailed about a submit to this assessment within the window is left out. The trail is
 * the record here too (the submit's row says `mailedTo`), and the assessment row is locked first, so two submits at
 * once cannot both find no mail and both send one. Call it in the submit's transaction, before writing its audit row.
 */
export async function reviewersToMail(
  tx: Tx,
  ctx: TenantCtx,
  batch: { id: string; createdBy: string | null },
  assigneeId: string | null,
): Promise<Reviewer[]> {
  await tx
    .select({ id: ab.id })
    .from(ab)
    .where(and(inTenant(ab, ctx), eq(ab.id, batch.id)))
    .for('update');
  const approvers = (where?: SQL) =>
    tx
      .select({ id: users.id, email: users.email, username: users.username })
      .from(users)
      .where(
        and(
          eq(users.organizationId, ctx.organizationId),
          isNull(users.deletedAt),
          inArray(users.role, [...APPROVER_ROLES]),
          ne(users.id, ctx.userId),
          where,
        ),
      );
  let chosen: Reviewer[] = [];
  for (const id of [assigneeId ? await assignerOf(tx, ctx, batch.id, assigneeId) : null, batch.createdBy]) {
    if (id) chosen = await approvers(eq(users.id, id));
    if (chosen.length > 0) break;
  }
  if (chosen.length === 0) chosen = await approvers();
  if (chosen.length === 0) return [];
  // As for assignments, the organization's audit rows are read through their (organization_id, seq) index.
  const recent = await tx
    .select({ mailedTo: sql<unknown>`${auditLogs.details}->'mailedTo'` })
    .from(auditLogs)
    .where(
      and(
        eq(auditLogs.organizationId, ctx.organizationId),
        eq(auditLogs.action, 'assessment_question_reviewed'),
        eq(auditLogs.entityId, batch.id),
        gte(auditLogs.createdAt, sql`now() - make_interval(mins => ${REVIEW_MAIL_WINDOW_MINUTES})`),
        sql`jsonb_typeof(${auditLogs.details}->'mailedTo') = 'array'`,
      ),
    );
  const mailed = new Set(recent.flatMap((r) => (Array.isArray(r.mailedTo) ? r.mailedTo : [])));
  return chosen.filter((r) => !mailed.has(r.id));
}

/** Who last assigned questions of this assessment to this person (the trail's record of it), if anyone. */
async function assignerOf(tx: Tx, ctx: TenantCtx, batchId: string, assigneeId: string): Promise<string | null> {
  const [row] = await tx
    .select({ userId: auditLogs.userId })
    .from(auditLogs)
    .where(assignmentsTo(ctx, batchId, assigneeId))
    .orderBy(desc(auditLogs.seq))
    .limit(1);
  return row?.userId ?? null;
}

/** How many questions of the assessment wait for a reviewer (what a review mail names). */
export async function inReviewCount(tx: Tx, ctx: TenantCtx, batchId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(aq)
    .where(and(inTenant(aq, ctx), eq(aq.batchId, batchId), eq(aq.reviewState, 'in_review')));
  return row?.n ?? 0;
}

/**
 * Tells reviewers that answers of an assessment wait for them, after the submit is saved and without holding up the
 * answer to the request: a mail relay that is down must not undo or delay a submit (it is logged).
 */
export function notifyReview(
  deps: Pick<AppDeps, 'mailer' | 'config' | 'log'>,
  input: {
    reviewers: readonly Reviewer[];
    by: string;
    batch: { id: string; name: string; workspaceId: string; metadata: { customerName: string | null } };
    waiting: number;
  },
): void {
  const waiting = plural(input.waiting, 'question');
  for (const reviewer of input.reviewers) {
    void deps.mailer
      .send({
        to: reviewer.email,
        subject: `${waiting} waiting for your review in ${quotedName(input.batch.name, SUBJECT_NAME_MAX)}`,
        // `by` is a username: letters, digits and . _ - only (common/schemas/auth.ts), so it cannot carry a message.
        text:
          `${input.by} submitted an answer for review in Verity. ${waiting} of this assessment ` +
          `${input.waiting === 1 ? 'waits' : 'wait'} for review:\n\n` +
          assessmentLines(input.batch) +
          `\nApprove them or send them back on the assessment's review page:\n\n` +
          `${reviewUrl(deps.config.publicUrl, input.batch)}\n\n` +
          `Answers submitted to this assessment in the next ${REVIEW_MAIL_WINDOW_MINUTES} minutes send no further ` +
          `e-mail; the page lists them all.\n`,
      })
      .catch((err: unknown) => deps.log.warn({ err }, 'the review e-mail could not be sent'));
  }
}

/**
 * The assessment's review page showing only the questions in review, in the assessment's workspace. `review` is the
 * page's review-state filter and `workspace` makes that workspace current (web/features/assessments/filter-params.ts,
 * web/app/workspace/use-workspace-from-link.ts).
 */
const reviewUrl = (publicUrl: string, batch: { id: string; workspaceId: string }) =>
  `${publicUrl}/assessments/${encodeURIComponent(batch.id)}?review=in_review` +
  `&workspace=${encodeURIComponent(batch.workspaceId)}`;

/** My questions in the assessment's workspace (the page makes it current, whichever one the person had open). */
const myQuestionsUrl = (publicUrl: string, batch: { workspaceId: string }) =>
  `${publicUrl}/my-questions?workspace=${encodeURIComponent(batch.workspaceId)}`;

/** Review states in which an assigned question still waits for its assignee (in review, it waits for a reviewer). */
const WAITING_FOR_ASSIGNEE = ['needs_answer', 'drafted'];

/**
 * Reminds each assignee, once per due date, of the questions whose due day has passed while they still wait for
 * them: one e-mail per person and assessment. Run by the worker's periodic pass across organizations; rows are
 * claimed with SKIP LOCKED and marked before the mail goes, so two workers never send the same reminder.
 * A mail that cannot be sent is counted, not retried (the reminder is a courtesy; the overdue flag stays on screen).
 */
export async function remindOverdue(
  db: Db,
  mailer: Mailer,
  publicUrl: string,
  now = new Date(),
): Promise<{ sent: number; failed: number }> {
  const due = await inTransaction(db, async (tx) => {
    const rows = await tx
      .select({
        id: aq.id,
        batchId: aq.batchId,
        assigneeId: aq.assigneeId,
        dueOn: sql<string>`coalesce(${aq.dueOn}, ${ab.dueOn})::text`,
      })
      .from(aq)
      .innerJoin(ab, eq(ab.id, aq.batchId))
      .where(
        and(
          sql`${aq.assigneeId} is not null`,
          // Its own due day, else its assessment's.
          lt(sql`coalesce(${aq.dueOn}, ${ab.dueOn})`, today(now)),
          isNull(aq.overdueNotifiedAt),
          inArray(aq.reviewState, WAITING_FOR_ASSIGNEE),
        ),
      )
      .limit(5000)
      .for('update', { of: aq, skipLocked: true });
    if (rows.length === 0) return [];
    await tx
      .update(aq)
      .set({ overdueNotifiedAt: now })
      .where(
        inArray(
          aq.id,
          rows.map((r) => r.id),
        ),
      );
    return rows;
  });
  if (due.length === 0) return { sent: 0, failed: 0 };
  const groups = new Map<string, { assigneeId: string; batchId: string; count: number; dueOn: string }>();
  for (const r of due) {
    const key = `${r.assigneeId}:${r.batchId}`;
    const g = groups.get(key) ?? { assigneeId: r.assigneeId ?? '', batchId: r.batchId, count: 0, dueOn: r.dueOn ?? '' };
    g.count += 1;
    if ((r.dueOn ?? '') < g.dueOn) g.dueOn = r.dueOn ?? '';
    groups.set(key, g);
  }
  const people = new Map(
    (
      await db
        .select({ id: users.id, email: users.email, username: users.username })
        .from(users)
        .where(
          and(inArray(users.id, [...new Set([...groups.values()].map((g) => g.assigneeId))]), isNull(users.deletedAt)),
        )
    ).map((u) => [u.id, u]),
  );
  const batches = new Map(
    (
      await db
        .select({ id: ab.id, name: ab.name, workspaceId: ab.workspaceId, metadata: ab.metadata })
        .from(ab)
        .where(inArray(ab.id, [...new Set([...groups.values()].map((g) => g.batchId))]))
    ).map((b) => [b.id, b]),
  );
  let sent = 0;
  let failed = 0;
  for (const g of groups.values()) {
    const person = people.get(g.assigneeId);
    const batch = batches.get(g.batchId);
    if (!person || !batch) continue;
    const mail = {
      to: person.email,
      subject: `Overdue: ${plural(g.count, 'question')} in ${quotedName(batch.name, SUBJECT_NAME_MAX)}`,
      text:
        `${plural(g.count, 'question')} assigned to you ` +
        `${g.count === 1 ? 'was' : 'were'} due ${g.dueOn} and ${g.count === 1 ? 'is' : 'are'} not submitted yet.\n\n` +
        assessmentLines(batch) +
        `\nAnswer them in My questions:\n\n${myQuestionsUrl(publicUrl, batch)}\n`,
    };
    try {
      await mailer.send(mail);
      sent += 1;
    } catch {
      failed += 1;
    }
  }
  return { sent, failed };
}
