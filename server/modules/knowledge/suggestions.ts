import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  assessmentBatches,
  assessmentQuestions,
  canonicalAnswers as ca,
  librarySuggestions as ls,
  users,
} from '../../db/schema';
import { inTransaction } from '../../db/client';
import type { AppDeps } from '../../deps';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';
import { badRequest, conflict, notFound } from '../../errors';
import { authorize } from '../../authorize';
import { can } from '../../../common/policies';
import {
  CreateSuggestionBody,
  type ApproveSuggestionBody,
  type ListSuggestionsQuery,
  type SuggestionStatus,
  type SuggestionView,
} from '../../../common/schemas/knowledge';
import { audit } from '../audit/service';
import { createAnswer, questionKey, updateAnswer } from './service';

const suggester = alias(users, 'suggester');
const decider = alias(users, 'decider');

/** The suggestions of the workspace matching `where`, with the people's names and the assessment's name joined. */
function selectSuggestions(ctx: TenantCtx, where?: SQL) {
  return ctx.db
    .select({
      row: ls,
      suggester: { id: suggester.id, username: suggester.username },
      decider: { id: decider.id, username: decider.username },
      batchName: assessmentBatches.name,
    })
    .from(ls)
    .leftJoin(suggester, eq(suggester.id, ls.suggestedBy))
    .leftJoin(decider, eq(decider.id, ls.decidedBy))
    .leftJoin(
      assessmentBatches,
      and(eq(assessmentBatches.id, ls.sourceBatchId), eq(assessmentBatches.organizationId, ls.organizationId)),
    )
    .where(where ? and(inTenant(ls, ctx), where) : inTenant(ls, ctx));
}

type SuggestionRecord = Awaited<ReturnType<typeof selectSuggestions>>[number];

function present(r: SuggestionRecord): SuggestionView {
  const person = (p: { id: string | null; username: string | null } | null) =>
    p?.id && p.username ? { id: p.id, username: p.username } : null;
  return {
    id: r.row.id,
    workspaceId: r.row.workspaceId,
    question: r.row.question,
    answer: r.row.answer,
    tags: r.row.tags,
    status: r.row.status as SuggestionStatus,
    suggestedBy: person(r.suggester),
    sourceBatchId: r.row.sourceBatchId,
    sourceBatchName: r.batchName ?? null,
    reason: r.row.rejectionReason,
    createdAt: r.row.createdAt.toISOString(),
    decidedBy: person(r.decider),
    decidedAt: r.row.decidedAt ? r.row.decidedAt.toISOString() : null,
    canonicalAnswerId: r.row.canonicalAnswerId,
  };
}

async function getSuggestion(ctx: TenantCtx, id: string): Promise<SuggestionView> {
  const [row] = await selectSuggestions(ctx, eq(ls.id, id));
  if (!row) throw notFound('Suggestion');
  return present(row);
}

/**
 * Proposes an answer for the library on behalf of someone who may not approve entries (PRODUCT §5): it waits in the
 * approvers' inbox. Held to the library form's rules, so an approval never fails on the suggester's text.
 */
export async function createSuggestion(
  ctx: TenantCtx,
  input: { question: string; answer: string; tags: string[]; sourceBatchId: string | null },
): Promise<{ id: string }> {
  authorize(ctx, 'knowledge:create_draft');
  const parsed = CreateSuggestionBody.safeParse(input);
  if (!parsed.success) {
    throw badRequest(parsed.error.issues[0]?.message ?? 'This answer cannot be suggested for the library');
  }
  const body = parsed.data;
  questionKey(body.question);
  return inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .insert(ls)
      .values({
        organizationId: ctx.organizationId,
        workspaceId: ctx.workspaceId,
        question: body.question,
        answer: body.answer,
        tags: body.tags,
        suggestedBy: ctx.userId,
        sourceBatchId: input.sourceBatchId,
      })
      .returning({ id: ls.id });
    if (!row) throw new Error('insert returned no suggestion');
    await audit({ ...ctx, db: tx }, 'library_suggestion_created', 'library_suggestion', row.id, {
      sourceBatchId: input.sourceBatchId,
    });
    return { id: row.id };
  });
}

/** The suggestion made through the API (the library's own "suggest" call), shown as the inbox shows it. */
export async function suggest(ctx: TenantCtx, input: CreateSuggestionBody): Promise<SuggestionView> {
  const { id } = await createSuggestion(ctx, { ...input, tags: input.tags ?? [], sourceBatchId: null });
  return getSuggestion(ctx, id);
}

/** Approvers see the workspace's inbox; everyone else only what they suggested (and what became of it). */
export async function listSuggestions(ctx: TenantCtx, query: ListSuggestionsQuery): Promise<SuggestionView[]> {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(ls.status, query.status));
  if (!can(ctx.role, 'knowledge:approve')) conditions.push(eq(ls.suggestedBy, ctx.userId));
  const rows = await selectSuggestions(ctx, conditions.length ? and(...conditions) : undefined).orderBy(
    desc(ls.createdAt),
    desc(ls.id),
  );
  return rows.map(present);
}

/** Locks a pending suggestion of the workspace for a decision; a decided one is a 409 naming what happened. */
async function lockPending(ctx: TenantCtx, id: string) {
  const [row] = await ctx.db
    .select()
    .from(ls)
    .where(and(inTenant(ls, ctx), eq(ls.id, id)))
    .for('update');
  if (!row) throw notFound('Suggestion');
  if (row.status !== 'pending') {
    throw conflict(`This suggestion was already ${row.status}. Refresh the list to see where it stands.`);
  }
  return row;
}

/** The workspace's entry for this question (compared as the library compares questions), if it has one. */
export async function entryWithQuestion(ctx: TenantCtx, question: string): Promise<string | null> {
  const [row] = await ctx.db
    .select({ id: ca.id })
    .from(ca)
    .where(and(inTenant(ca, ctx), eq(ca.questionNorm, questionKey(question))));
  return row?.id ?? null;
}

/**
 * Approves a suggestion, as suggested or as the approver edited it: it becomes an approved library entry, or, when
 * the workspace already has that question, the existing entry takes the new answer as its next version. Assessment
 * questions saved as this suggestion then point at the entry.
 */
export async function approveSuggestion(
  deps: AppDeps,
  ctx: TenantCtx,
  id: string,
  edits: ApproveSuggestionBody,
): Promise<SuggestionView> {
  authorize(ctx, 'knowledge:approve');
  const decided = await inTransaction(ctx.db, async (tx) => {
    const t = { ...ctx, db: tx };
    const s = await lockPending(t, id);
    const question = edits.question ?? s.question;
    const answer = edits.answer ?? s.answer;
    const tags = edits.tags ?? s.tags;
    const existing = await entryWithQuestion(t, question);
    // An existing entry keeps its wording of the question and its tags unless the approver changed them: the
    // suggestion brings a new answer, and "Save to library" from an assessment brings no tags at all.
    const entry = existing
      ? await updateAnswer(t, existing, {
          answer,
          status: 'approved',
          ...(edits.question !== undefined && { question }),
          ...(edits.tags !== undefined && { tags }),
        })
      : await createAnswer(t, { question, answer, tags, status: 'approved' });
    await tx
      .update(ls)
      .set({ status: 'approved', decidedBy: ctx.userId, decidedAt: new Date(), canonicalAnswerId: entry.id })
      .where(and(inTenant(ls, t), eq(ls.id, id)));
    await tx
      .update(assessmentQuestions)
      .set({ libraryEntryId: entry.id })
      .where(and(inTenant(assessmentQuestions, t), eq(assessmentQuestions.librarySuggestionId, id)));
    const edited = (['question', 'answer', 'tags'] as const).filter((k) => edits[k] !== undefined);
    await audit(t, 'library_suggestion_approved', 'library_suggestion', id, {
      canonicalAnswerId: entry.id,
      updatedExisting: existing !== null,
      ...(edited.length > 0 && { edited }),
    });
    return { suggestedBy: s.suggestedBy, question, edited: edited.length > 0 };
  });
  await tellSuggester(deps, ctx, decided.suggestedBy, {
    subject: 'Your library suggestion was approved',
    text:
      `${ctx.username} approved your suggestion for the library${decided.edited ? ', with changes' : ''}:\n\n` +
      `"${decided.question}"\n\nIt is now an approved answer in the library:\n${deps.config.publicUrl}/library\n`,
  });
  return getSuggestion(ctx, id);
}

/** Rejects a suggestion with a reason its suggester sees (in the library and by e-mail). */
export async function rejectSuggestion(
  deps: AppDeps,
  ctx: TenantCtx,
  id: string,
  reason: string,
): Promise<SuggestionView> {
  authorize(ctx, 'knowledge:approve');
  const s = await inTransaction(ctx.db, async (tx) => {
    const t = { ...ctx, db: tx };
    const row = await lockPending(t, id);
    await tx
      .update(ls)
      .set({ status: 'rejected', rejectionReason: reason, decidedBy: ctx.userId, decidedAt: new Date() })
      .where(and(inTenant(ls, t), eq(ls.id, id)));
    await audit(t, 'library_suggestion_rejected', 'library_suggestion', id, { reason });
    return row;
  });
  await tellSuggester(deps, ctx, s.suggestedBy, {
    subject: 'Your library suggestion was not accepted',
    text:
      `${ctx.username} did not accept your suggestion for the library:\n\n"${s.question}"\n\n` +
      `Reason: ${reason}\n\nYour suggestions and their status:\n${deps.config.publicUrl}/library\n`,
  });
  return getSuggestion(ctx, id);
}

/**
 * E-mails the suggester what became of their suggestion, unless they decided it themselves or left. The decision
 * is already saved: a mail server that fails is logged, not reported as a failed decision.
 */
async function tellSuggester(
  deps: AppDeps,
  ctx: TenantCtx,
  userId: string | null,
  mail: { subject: string; text: string },
) {
  if (!userId || userId === ctx.userId) return;
  const [user] = await ctx.db
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organizationId, ctx.organizationId), isNull(users.deletedAt)));
  if (!user) return;
  await deps.mailer
    .send({ to: user.email, subject: mail.subject, text: `Hello ${user.username},\n\n${mail.text}` })
    .catch((err: unknown) => deps.log.error({ err, userId }, 'library suggestion e-mail could not be sent'));
}
