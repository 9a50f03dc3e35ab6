import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import { assessmentBatches as ab, assessmentQuestions as aq, users } from '../../db/schema';
import { inTransaction, type Db } from '../../db/client';
import type { AppDeps } from '../../deps';
import type { Mailer } from '../../mail/mailer';
import { today } from './presenters';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function assessmentName(batch: { name: string; metadata: { customerName: string | null } }) {
  return batch.metadata.customerName ? `"${batch.name}" (${batch.metadata.customerName})` : `"${batch.name}"`;
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
      subject: `${plural(input.questions, 'question')} assigned to you in ${input.batch.name}`,
      text:
        `${input.by} assigned you ${plural(input.questions, 'question')} of the assessment ` +
        `${assessmentName(input.batch)}${due}.\n\n` +
        `Answer them, then submit them for review, in My questions:\n\n${myQuestionsUrl(deps.config.publicUrl, input.batch)}\n`,
    })
    .catch((err: unknown) => deps.log.warn({ err }, 'the assignment e-mail could not be sent'));
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
      subject: `Overdue: ${plural(g.count, 'question')} in ${batch.name}`,
      text:
        `${plural(g.count, 'question')} of the assessment ${assessmentName(batch)} assigned to you ` +
        `${g.count === 1 ? 'was' : 'were'} due ${g.dueOn} and ${g.count === 1 ? 'is' : 'are'} not submitted yet.\n\n` +
        `Answer them in My questions:\n\n${myQuestionsUrl(publicUrl, batch)}\n`,
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
