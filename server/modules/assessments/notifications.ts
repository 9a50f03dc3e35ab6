import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { assessmentBatches as ab, assessmentQuestions as aq, auditLogs, users } from '../../db/schema';
import { inTransaction, type Db, type Tx } from '../../db/client';
import type { TenantCtx } from '../../context';
import type { AppDeps } from '../../deps';
import { inTenant } from '../../tenancy';
import type { Mailer } from '../../mail/mailer';
import { quotedName, SUBJECT_NAME_MAX } from '../../mail/quoted-name';
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
        eq(auditLogs.organizationId, ctx.organizationId),
        eq(auditLogs.action, 'assessment_questions_assigned'),
        eq(auditLogs.entityId, batchId),
        gte(auditLogs.createdAt, sql`now() - make_interval(mins => ${ASSIGNMENT_MAIL_WINDOW_MINUTES})`),
        sql`${auditLogs.details}->>'assigneeId' = ${assigneeId}`,
        sql`${auditLogs.details}->>'mailed' = 'true'`,
      ),
    )
    .limit(1);
  return mailed === undefined;
}

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
