import { and, count, desc, eq, gte, ilike, isNotNull, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { assessmentBatches, qaEntries, qaSessions, users } from '../../db/schema';
import { inTransaction, type DbOrTx } from '../../db/client';
import { conflict, notFound } from '../../errors';
import type { TenantCtx } from '../../context';
import type { AppDeps } from '../../deps';
import { inTenant } from '../../tenancy';
import { can } from '../../../common/policies';
import { withinQaLimits } from './limits';
import { audit } from '../audit/service';
import { brandProfileOf } from '../organizations/service';
import { answerQuestion, matchQuestion, type EngineAi, type EngineAnswer } from '../../engine/answer';
import { retrievalNote } from '../../engine/text/question-bounds';

import type {
  AnswerEntryView,
  AnswerSource,
  AnswerType,
  AskBody,
  ExistingAnswer,
  HistoryFilter,
  HistoryEntryView,
  SessionAssessment,
  SessionDetailView,
  SessionView,
  TopMatch,
} from '../../../common/schemas/qa';

/** Whether the caller sees everyone's history in the workspace (admin-level roles), or only their own. */
export const seesAllHistory = (ctx: TenantCtx) => can(ctx.role, 'chat_history:read_all');

const brandOf = (ctx: TenantCtx) => brandProfileOf(ctx.db, ctx.organizationId);

/** The caller's own session in this workspace; anyone else's is "not found". */
async function ownSession(ctx: TenantCtx, id: string) {
  const [row] = await ctx.db
    .select()
    .from(qaSessions)
    .where(and(inTenant(qaSessions, ctx), eq(qaSessions.id, id), eq(qaSessions.userId, ctx.userId)));
  if (!row) throw notFound('Session');
  return row;
}

/** The bulk assessment started in a chat (Ask's Bulk Import), if any: the latest, should there be several. */
async function sessionAssessment(ctx: TenantCtx, sessionId: string) {
  const [batch] = await ctx.db
    .select({
      id: assessmentBatches.id,
      totalQuestions: assessmentBatches.totalQuestions,
      metadata: assessmentBatches.metadata,
    })
    .from(assessmentBatches)
    .where(and(inTenant(assessmentBatches, ctx), eq(assessmentBatches.sessionId, sessionId)))
    .orderBy(desc(assessmentBatches.createdAt), desc(assessmentBatches.id))
    .limit(1);
  return batch;
}

/**
 * The caller's session to ask in. A chat started for a bulk assessment holds that assessment's questions only (its
 * question count is the questionnaire's): a question typed afterwards belongs in a new chat.
 */
async function askableSession(ctx: TenantCtx, id: string) {
  const session = await ownSession(ctx, id);
  const batch = await sessionAssessment(ctx, id);
  if (batch) {
    const customer = batch.metadata.customerName ?? session.customerName;
    throw conflict(
      `This chat holds the bulk assessment${customer ? ` for ${customer}` : ''}. Start a new chat to ask questions.`,
    );
  }
  return session;
}

/**
 * Chat entries that are questions someone asked (on Ask or through the API), as opposed to the answers of a bulk
 * assessment recorded in the chat it was started from. Queries This Month and the tasks count only these, so an
 * assessment counts the same wherever it was started (its questions are reviewed in the assessment instead).
 */
export function askedInChat(ctx: TenantCtx): SQL {
  const assessmentSessions = ctx.db
    .select({ id: assessmentBatches.sessionId })
    .from(assessmentBatches)
    .where(and(inTenant(assessmentBatches, ctx), isNotNull(assessmentBatches.sessionId)));
  return or(isNull(qaEntries.sessionId), notInArray(qaEntries.sessionId, assessmentSessions)) ?? sql`true`;
}

export async function createSession(ctx: TenantCtx, input: { title: string; customerName?: string }) {
  return inTransaction(ctx.db, async (tx) => {
    const [row] = await tx
      .insert(qaSessions)
      .values({
        organizationId: ctx.organizationId,
        workspaceId: ctx.workspaceId,
        userId: ctx.userId,
        title: input.title,
        customerName: input.customerName || null,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    await audit({ ...ctx, db: tx }, 'qa_session_created', 'qa_session', row.id, { title: row.title });
    return row;
  });
}

export async function renameSession(ctx: TenantCtx, id: string, title: string) {
  await ownSession(ctx, id);
  const [row] = await ctx.db
    .update(qaSessions)
    .set({ title, updatedAt: new Date() })
    .where(and(inTenant(qaSessions, ctx), eq(qaSessions.id, id), eq(qaSessions.userId, ctx.userId)))
    .returning();
  if (!row) throw notFound('Session');
  return row;
}

function presentEntry(row: typeof qaEntries.$inferSelect, matches: TopMatch[] = []): AnswerEntryView {
  return {
    id: row.id,
    sessionId: row.sessionId,
    question: row.question,
    answer: row.answer,
    answerType: row.answerType as AnswerType,
    confidence: row.confidence,
    sources: row.sources as AnswerSource[],
    lastVerified: row.lastVerifiedAt ? row.lastVerifiedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    matches,
    note: retrievalNote(row.question),
  };
}

/**
 * `order` places an entry after the others of its transaction: they share now(), and a reopened chat must show a
 * batch's answers in the order they were asked.
 */
async function record(
  tx: DbOrTx,
  ctx: TenantCtx,
  sessionId: string | null,
  question: string,
  a: EngineAnswer,
  order = 0,
) {
  const [row] = await tx
    .insert(qaEntries)
    .values({
      ...(order > 0 && { createdAt: sql`now() + make_interval(secs => ${order / 1_000_000})` }),
      organizationId: ctx.organizationId,
      workspaceId: ctx.workspaceId,
      sessionId,
      userId: ctx.userId,
      question,
      answer: a.answer,
      answerType: a.answerType,
      confidence: a.confidence,
      sources: a.sources,
      lastVerifiedAt: a.lastVerifiedAt,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/**
 * Answers one question (or records an answer already given) within the caller's question limits. Recording an
 * answer already shown costs no engine work, but is still a write: it counts like a question.
 */
export function ask(deps: AppDeps, ctx: TenantCtx, input: z.output<typeof AskBody>): Promise<AnswerEntryView> {
  return withinQaLimits(ctx, deps.config.qa, 1, () => answerOne(ctx, input, deps));
}

/** Several questions at once, within the caller's question limits: each counts. */
export function askMany(deps: AppDeps, ctx: TenantCtx, input: { questions: string[]; sessionId?: string }) {
  return withinQaLimits(ctx, deps.config.qa, input.questions.length, () => answerMany(ctx, input, deps));
}

/** Answers one question (or records an answer already given) and keeps it in the caller's history. */
async function answerOne(ctx: TenantCtx, input: z.output<typeof AskBody>, ai: EngineAi): Promise<AnswerEntryView> {
  const sessionId = input.sessionId ? (await askableSession(ctx, input.sessionId)).id : null;
  if (input.existingAnswer && sessionId) {
    // Saving a chat re-sends answers the session already holds (PRODUCT §7): record each once.
    const [same] = await ctx.db
      .select()
      .from(qaEntries)
      .where(
        and(
          inTenant(qaEntries, ctx),
          eq(qaEntries.sessionId, sessionId),
          eq(qaEntries.question, input.question),
          eq(qaEntries.answer, input.existingAnswer.answer),
        ),
      )
      .limit(1);
    if (same) return presentEntry(same);
  }
  const result: EngineAnswer = input.existingAnswer
    ? await recordedAnswer(ctx, input.question, input.existingAnswer)
    : await answerQuestion(ctx, input.question, await brandOf(ctx), ai);
  const row = await record(ctx.db, ctx, sessionId, input.question, result);
  return presentEntry(row, result.matches);
}

/**
 * An answer the browser already showed, as it will be recorded. Its type, confidence and sources are the server's
 * own: those of the caller's earlier answer to the same question with the same text in this workspace (the engine
 * recorded it when it answered). Text the engine never gave is the caller's own, recorded as needing review with
 * no sources, whatever the request claims: nobody can record a made-up "canonical, 100%" answer citing a real
 * entry under an invented title, which would count as automated in the analytics.
 */
async function recordedAnswer(
  ctx: TenantCtx,
  question: string,
  given: z.infer<typeof ExistingAnswer>,
): Promise<EngineAnswer> {
  const [answered] = await ctx.db
    .select()
    .from(qaEntries)
    .where(
      and(
        inTenant(qaEntries, ctx),
        eq(qaEntries.userId, ctx.userId),
        eq(qaEntries.question, question),
        eq(qaEntries.answer, given.answer),
      ),
    )
    .orderBy(desc(qaEntries.createdAt), desc(qaEntries.id))
    .limit(1);
  if (!answered) {
    return {
      answer: given.answer,
      answerType: 'unknown',
      confidence: 0,
      sources: [],
      matches: [],
      lastVerifiedAt: null,
    };
  }
  return {
    answer: answered.answer,
    answerType: answered.answerType as AnswerType,
    confidence: answered.confidence,
    sources: answered.sources as AnswerSource[],
    matches: [],
    lastVerifiedAt: answered.lastVerifiedAt,
  };
}

const BATCH_LIBRARY_FRESH_MS = 5_000;

/** Several questions at once: all answered first, then stored together, so a failure leaves no half batch. */
async function answerMany(ctx: TenantCtx, input: { questions: string[]; sessionId?: string }, ai: EngineAi) {
  const sessionId = input.sessionId ? (await askableSession(ctx, input.sessionId)).id : null;
  const brand = await brandOf(ctx);
  const answers: Array<{ question: string; result: EngineAnswer }> = [];
  for (const [i, question] of input.questions.entries()) {
    // The library is checked for changes once per batch, not once per question.
    const libraryFreshWithinMs = i === 0 ? 0 : BATCH_LIBRARY_FRESH_MS;
    answers.push({ question, result: await answerQuestion(ctx, question, brand, ai, { libraryFreshWithinMs }) });
  }
  const rows = await inTransaction(ctx.db, async (tx) => {
    const out = [];
    for (const [i, a] of answers.entries()) {
      out.push({ row: await record(tx, ctx, sessionId, a.question, a.result, i), a });
    }
    return out;
  });
  return rows.map(({ row, a }) => presentEntry(row, a.result.matches));
}

/** Library entries closest to a question, for the side panel's Top Matching Answers. */
export async function topMatches(ctx: TenantCtx, question: string): Promise<TopMatch[]> {
  return matchQuestion(ctx, question);
}

function since(period: z.output<typeof HistoryFilter>['period']): Date | null {
  const day = 24 * 3600_000;
  if (period === 'today') {
    const d = new Date();
    d.setUTCHours(0, 0, 0, 0);
    return d;
  }
  if (period === '7d') return new Date(Date.now() - 7 * day);
  if (period === '30d') return new Date(Date.now() - 30 * day);
  return null;
}

/** Whose history the caller sees: everyone's for admin-level roles, else only their own. */
function historyWhere(ctx: TenantCtx, f: z.output<typeof HistoryFilter>) {
  const conditions: SQL[] = [inTenant(qaEntries, ctx)];
  if (!seesAllHistory(ctx)) conditions.push(eq(qaEntries.userId, ctx.userId));
  else if (f.userId) conditions.push(eq(qaEntries.userId, f.userId));
  const from = since(f.period);
  if (from) conditions.push(gte(qaEntries.createdAt, from));
  if (f.answerType) conditions.push(eq(qaEntries.answerType, f.answerType));
  if (f.q) {
    const like = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const text = or(ilike(qaEntries.question, like), ilike(qaEntries.answer, like));
    if (text) conditions.push(text);
  }
  return and(...conditions);
}

export async function listHistory(
  ctx: TenantCtx,
  f: z.output<typeof HistoryFilter> & { limit: number; offset: number },
) {
  const where = historyWhere(ctx, f);
  const rows = await ctx.db
    .select({ entry: qaEntries, username: users.username })
    .from(qaEntries)
    .leftJoin(users, eq(users.id, qaEntries.userId))
    .where(where)
    .orderBy(desc(qaEntries.createdAt), desc(qaEntries.id))
    .limit(f.limit)
    .offset(f.offset);
  const [total] = await ctx.db.select({ n: count() }).from(qaEntries).where(where);
  const entries: HistoryEntryView[] = rows.map(({ entry, username }) => ({
    id: entry.id,
    userId: entry.userId,
    username,
    sessionId: entry.sessionId,
    question: entry.question,
    answer: entry.answer,
    answerType: entry.answerType as AnswerType,
    confidence: entry.confidence,
    sources: entry.sources as AnswerSource[],
    createdAt: entry.createdAt.toISOString(),
  }));
  return { entries, total: total?.n ?? 0 };
}

const entryCount = sql<number>`(select count(*)::int from ${qaEntries} where ${qaEntries.sessionId} = ${qaSessions.id})`;

function presentSession(s: typeof qaSessions.$inferSelect, username: string | null, n: number): SessionView {
  return {
    id: s.id,
    userId: s.userId,
    username,
    title: s.title,
    customerName: s.customerName,
    entryCount: Number(n),
    createdAt: s.createdAt.toISOString(),
  };
}

/**
 * Sessions with their entry counts, newest first: the caller's own, or with `visible` all the caller may see
 * (everyone's for admin-level roles).
 */
export async function listSessions(ctx: TenantCtx, which: 'own' | 'visible', limit = 1000): Promise<SessionView[]> {
  const seeAll = which === 'visible' && seesAllHistory(ctx);
  const rows = await ctx.db
    .select({ s: qaSessions, username: users.username, entryCount })
    .from(qaSessions)
    .leftJoin(users, eq(users.id, qaSessions.userId))
    .where(seeAll ? inTenant(qaSessions, ctx) : and(inTenant(qaSessions, ctx), eq(qaSessions.userId, ctx.userId)))
    .orderBy(desc(qaSessions.createdAt), desc(qaSessions.id))
    .limit(limit);
  return rows.map(({ s, username, entryCount: n }) => presentSession(s, username, n));
}

/** A reopened chat shows its latest entries, up to this many (a chat of pasted batches can hold thousands). */
export const SESSION_ENTRIES_MAX = 500;

/**
 * A chat to reopen: one the caller may read in Chat History (their own, or anyone's in the workspace for admin-level
 * roles); any other id is "not found". A bulk assessment's chat comes with its assessment instead of its answers.
 */
export async function getSessionDetail(ctx: TenantCtx, id: string): Promise<SessionDetailView> {
  const conditions: SQL[] = [inTenant(qaSessions, ctx), eq(qaSessions.id, id)];
  if (!seesAllHistory(ctx)) conditions.push(eq(qaSessions.userId, ctx.userId));
  const [found] = await ctx.db
    .select({ s: qaSessions, username: users.username, entryCount })
    .from(qaSessions)
    .leftJoin(users, eq(users.id, qaSessions.userId))
    .where(and(...conditions));
  if (!found) throw notFound('Session');
  const batch = await sessionAssessment(ctx, id);
  const assessment: SessionAssessment | null = batch
    ? {
        id: batch.id,
        customerName: batch.metadata.customerName ?? found.s.customerName ?? '',
        fileName: batch.metadata.sourceFile ?? '',
        totalQuestions: batch.totalQuestions,
      }
    : null;
  const rows = batch
    ? []
    : await ctx.db
        .select()
        .from(qaEntries)
        .where(and(inTenant(qaEntries, ctx), eq(qaEntries.sessionId, id)))
        .orderBy(desc(qaEntries.createdAt), desc(qaEntries.id))
        .limit(SESSION_ENTRIES_MAX);
  return {
    session: presentSession(found.s, found.username, found.entryCount),
    entries: rows.reverse().map((row) => presentEntry(row)),
    assessment,
  };
}

/**
 * Questions asked in the workspace this calendar month (organization stats' monthlyQueries): on Ask or through the
 * API, never an assessment's questions, wherever it was started (askedInChat).
 */
export async function countMonthlyQueries(ctx: TenantCtx) {
  const start = new Date();
  start.setUTCDate(1);
  start.setUTCHours(0, 0, 0, 0);
  const [row] = await ctx.db
    .select({ n: count() })
    .from(qaEntries)
    .where(and(inTenant(qaEntries, ctx), gte(qaEntries.createdAt, start), askedInChat(ctx)));
  return row?.n ?? 0;
}
