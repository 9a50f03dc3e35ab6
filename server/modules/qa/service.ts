import { and, count, desc, eq, gte, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { canonicalAnswers, documents, qaEntries, qaSessions, users } from '../../db/schema';
import { inTransaction, type DbOrTx } from '../../db/client';
import { notFound } from '../../http/errors';
import { audit } from '../audit/service';
import { brandProfileOf } from '../organizations/service';
import { answerQuestion, type EngineAi, type EngineAnswer } from '../../engine/answer';
import { rankEntries } from '../../engine/score';
import { ENTRY_CANDIDATES } from '../../engine/retrieve';
import { libraryIndex, searchIndex } from '../../engine/library-index';
import { THRESHOLDS } from '../../engine/thresholds';

import type {
  AnswerEntryView,
  AnswerSource,
  AnswerType,
  AskBody,
  ExistingAnswer,
  HistoryFilter,
  HistoryEntryView,
  SessionView,
  TopMatch,
} from '../../../common/schemas/qa';

export type QaCtx = { db: DbOrTx; organizationId: string; workspaceId: string; userId: string };

const inWorkspace = (c: QaCtx, t: typeof qaEntries | typeof qaSessions) =>
  and(eq(t.organizationId, c.organizationId), eq(t.workspaceId, c.workspaceId)) as SQL;

const brandOf = (ctx: QaCtx) => brandProfileOf(ctx.db, ctx.organizationId);

/** The caller's own session in this workspace; anyone else's is "not found". */
async function ownSession(ctx: QaCtx, id: string) {
  const [row] = await ctx.db
    .select()
    .from(qaSessions)
    .where(and(inWorkspace(ctx, qaSessions), eq(qaSessions.id, id), eq(qaSessions.userId, ctx.userId)));
  if (!row) throw notFound('Session');
  return row;
}

export async function createSession(ctx: QaCtx, input: { title: string; customerName?: string }) {
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

export async function renameSession(ctx: QaCtx, id: string, title: string) {
  await ownSession(ctx, id);
  const [row] = await ctx.db
    .update(qaSessions)
    .set({ title, updatedAt: new Date() })
    .where(and(inWorkspace(ctx, qaSessions), eq(qaSessions.id, id), eq(qaSessions.userId, ctx.userId)))
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
  };
}

async function record(tx: DbOrTx, ctx: QaCtx, sessionId: string | null, question: string, a: EngineAnswer) {
  const [row] = await tx
    .insert(qaEntries)
    .values({
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

/** Answers one question (or records an answer already given) and keeps it in the caller's history. */
export async function ask(ctx: QaCtx, input: z.output<typeof AskBody>, ai: EngineAi = {}): Promise<AnswerEntryView> {
  const sessionId = input.sessionId ? (await ownSession(ctx, input.sessionId)).id : null;
  if (input.existingAnswer && sessionId) {
    // Saving a chat re-sends answers the session already holds (SPEC §4): record each once.
    const [same] = await ctx.db
      .select()
      .from(qaEntries)
      .where(
        and(
          eq(qaEntries.sessionId, sessionId),
          eq(qaEntries.question, input.question),
          eq(qaEntries.answer, input.existingAnswer.answer),
        ),
      )
      .limit(1);
    if (same) return presentEntry(same);
  }
  const result: EngineAnswer = input.existingAnswer
    ? await recordedAnswer(ctx, input.existingAnswer)
    : await answerQuestion(ctx, input.question, await brandOf(ctx), ai);
  const row = await record(ctx.db, ctx, sessionId, input.question, result);
  return presentEntry(row, result.matches);
}

/**
 * An answer the browser already showed, as it will be recorded. Its sources are kept only when they are this
 * workspace's entries and documents, and its type only when such a source backs it (a library answer cites an
 * entry, a document answer a document): the client cannot record a made-up "canonical, 100%" answer that would
 * count as automated in the analytics.
 */
async function recordedAnswer(ctx: QaCtx, given: z.infer<typeof ExistingAnswer>): Promise<EngineAnswer> {
  const ids = (type: 'library' | 'document') =>
    given.sources
      .filter((s) => s.type === type)
      .map((s) => (type === 'library' ? s.canonicalAnswerId : s.documentId))
      .filter((id): id is string => typeof id === 'string' && UUID.test(id));
  const entryIds = ids('library');
  const documentIds = ids('document');
  const knownEntries = new Set(
    entryIds.length
      ? (
          await ctx.db
            .select({ id: canonicalAnswers.id })
            .from(canonicalAnswers)
            .where(
              and(
                eq(canonicalAnswers.organizationId, ctx.organizationId),
                eq(canonicalAnswers.workspaceId, ctx.workspaceId),
                inArray(canonicalAnswers.id, entryIds),
              ),
            )
        ).map((r) => r.id)
      : [],
  );
  const knownDocuments = new Set(
    documentIds.length
      ? (
          await ctx.db
            .select({ id: documents.id })
            .from(documents)
            .where(
              and(
                eq(documents.organizationId, ctx.organizationId),
                eq(documents.workspaceId, ctx.workspaceId),
                inArray(documents.id, documentIds),
              ),
            )
        ).map((r) => r.id)
      : [],
  );
  const sources = given.sources.filter((s) =>
    s.type === 'library' ? knownEntries.has(s.canonicalAnswerId ?? '') : knownDocuments.has(s.documentId ?? ''),
  );
  const backed =
    given.answerType === 'unknown' ||
    (given.answerType === 'generated'
      ? sources.some((s) => s.type === 'document')
      : sources.some((s) => s.type === 'library'));
  return {
    answer: given.answer,
    answerType: backed ? given.answerType : 'unknown',
    confidence: backed ? Math.round(given.confidence) : 0,
    sources,
    matches: [],
    lastVerifiedAt: null,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Several questions at once: all answered first, then stored together, so a failure leaves no half batch. */
export async function askMany(ctx: QaCtx, input: { questions: string[]; sessionId?: string }, ai: EngineAi = {}) {
  const sessionId = input.sessionId ? (await ownSession(ctx, input.sessionId)).id : null;
  const brand = await brandOf(ctx);
  const answers: Array<{ question: string; result: EngineAnswer }> = [];
  for (const question of input.questions)
    answers.push({ question, result: await answerQuestion(ctx, question, brand, ai) });
  const rows = await inTransaction(ctx.db, async (tx) => {
    const out = [];
    for (const a of answers) out.push({ row: await record(tx, ctx, sessionId, a.question, a.result), a });
    return out;
  });
  return rows.map(({ row, a }) => presentEntry(row, a.result.matches));
}

/** Library entries closest to a question, for the side panel's Top Matching Answers. */
export async function topMatches(ctx: QaCtx, question: string): Promise<TopMatch[]> {
  const index = await libraryIndex(ctx);
  const ranked = rankEntries(question, searchIndex(index, question, ENTRY_CANDIDATES), index.weights);
  return ranked
    .filter((r) => r.score >= THRESHOLDS.match)
    .slice(0, 5)
    .map((r) => ({
      id: r.candidate.id,
      question: r.candidate.question,
      similarity: Math.round(r.score * 100),
      lastUpdated: r.candidate.updatedAt.toISOString(),
    }));
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
function historyWhere(ctx: QaCtx, seeAll: boolean, f: z.output<typeof HistoryFilter>) {
  const conditions: SQL[] = [inWorkspace(ctx, qaEntries)];
  if (!seeAll) conditions.push(eq(qaEntries.userId, ctx.userId));
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
  ctx: QaCtx,
  seeAll: boolean,
  f: z.output<typeof HistoryFilter> & { limit: number; offset: number },
) {
  const where = historyWhere(ctx, seeAll, f);
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

/** Sessions with their entry counts: everyone's for admin-level roles, else the caller's own. */
export async function listSessions(ctx: QaCtx, seeAll: boolean): Promise<SessionView[]> {
  const entryCount = sql<number>`(select count(*)::int from ${qaEntries} where ${qaEntries.sessionId} = ${qaSessions.id})`;
  const rows = await ctx.db
    .select({ s: qaSessions, username: users.username, entryCount })
    .from(qaSessions)
    .leftJoin(users, eq(users.id, qaSessions.userId))
    .where(seeAll ? inWorkspace(ctx, qaSessions) : and(inWorkspace(ctx, qaSessions), eq(qaSessions.userId, ctx.userId)))
    .orderBy(desc(qaSessions.createdAt))
    .limit(1000);
  return rows.map(({ s, username, entryCount: n }) => ({
    id: s.id,
    userId: s.userId,
    username,
    title: s.title,
    customerName: s.customerName,
    entryCount: Number(n),
    createdAt: s.createdAt.toISOString(),
  }));
}

/** Questions asked in the workspace this calendar month (organization stats' monthlyQueries). */
export async function countMonthlyQueries(ctx: { db: DbOrTx; organizationId: string; workspaceId: string }) {
  const start = new Date();
  start.setUTCDate(1);
  start.setUTCHours(0, 0, 0, 0);
  const [row] = await ctx.db
    .select({ n: count() })
    .from(qaEntries)
    .where(
      and(
        eq(qaEntries.organizationId, ctx.organizationId),
        eq(qaEntries.workspaceId, ctx.workspaceId),
        gte(qaEntries.createdAt, start),
      ),
    );
  return row?.n ?? 0;
}
