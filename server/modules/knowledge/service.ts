import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { canonicalAnswerVersions as versions, canonicalAnswers as ca, users } from '../../db/schema';
import { inTransaction } from '../../db/client';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import { audit } from '../audit/service';
import { authorize } from '../../authorize';
import { normalizeQuestion } from '../../../common/import/normalize';
import type {
  AnswerVersionView,
  CreateCanonicalAnswerBody,
  LibraryCounts,
  LibraryFilterQuery,
  TagCount,
  UpdateCanonicalAnswerBody,
} from '../../../common/schemas/knowledge';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';
import { filterConditions, loadAnswer, selectAnswers } from './queries';
import { isStale } from './freshness';
import type { AnswerRecord } from './presenters';
import type { AnswerStatus } from '../../../common/schemas/knowledge';

const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
  }
  return false;
}

function alreadyInLibrary(existingId: string | null): AppError {
  return new AppError(409, 'duplicate_question', 'This question is already in the library.', { existingId });
}

/** The folded form duplicates are found by; a question of punctuation alone has none and is refused. */
export function questionKey(question: string): string {
  const norm = normalizeQuestion(question);
  if (!norm) throw badRequest('Question must contain letters or numbers');
  return norm;
}

async function assertOwner(ctx: TenantCtx, ownerId: string | null | undefined) {
  if (!ownerId) return;
  const [u] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, ownerId), eq(users.organizationId, ctx.organizationId), isNull(users.deletedAt)));
  if (!u) throw badRequest('Owner must be a user of your organization');
}

async function existingWithKey(ctx: TenantCtx, key: string) {
  const [row] = await ctx.db
    .select({ id: ca.id })
    .from(ca)
    .where(and(inTenant(ca, ctx), eq(ca.questionNorm, key)));
  return row?.id ?? null;
}

export async function listAnswers(ctx: TenantCtx, query: LibraryFilterQuery & { limit: number; offset: number }) {
  const { where, rank } = filterConditions(query, { userId: ctx.userId });
  const order = rank ? [desc(rank), desc(ca.updatedAt), asc(ca.id)] : [desc(ca.updatedAt), asc(ca.id)];
  const rows = await selectAnswers(ctx, where)
    .orderBy(...order)
    .limit(query.limit)
    .offset(query.offset);
  const [total] = await ctx.db
    .select({ n: count() })
    .from(ca)
    .where(where ? and(inTenant(ca, ctx), where) : inTenant(ca, ctx));
  return { rows, total: total?.n ?? 0 };
}

/** Every id matching the filter, in list order, for "Select All" across pages. */
export async function listAnswerIds(ctx: TenantCtx, query: LibraryFilterQuery): Promise<string[]> {
  const { where, rank } = filterConditions(query, { userId: ctx.userId });
  const order = rank ? [desc(rank), desc(ca.updatedAt), asc(ca.id)] : [desc(ca.updatedAt), asc(ca.id)];
  const rows = await ctx.db
    .select({ id: ca.id })
    .from(ca)
    .where(where ? and(inTenant(ca, ctx), where) : inTenant(ca, ctx))
    .orderBy(...order);
  return rows.map((r) => r.id);
}

export async function countAnswers(ctx: TenantCtx, query: Omit<LibraryFilterQuery, 'status'>): Promise<LibraryCounts> {
  const { where } = filterConditions(query, { ignoreStatus: true, userId: ctx.userId });
  const rows = await ctx.db
    .select({ status: ca.status, n: count(), stale: sql<number>`cast(count(*) filter (where ${isStale}) as int)` })
    .from(ca)
    .where(where ? and(inTenant(ca, ctx), where) : inTenant(ca, ctx))
    .groupBy(ca.status);
  const by = (s: AnswerStatus) => rows.find((r) => r.status === s)?.n ?? 0;
  return {
    all: by('approved') + by('draft'),
    approved: by('approved'),
    draft: by('draft'),
    archived: by('archived'),
    reverify: rows.reduce((n, r) => n + Number(r.stale), 0),
  };
}

/** Tags of live (approved or draft) entries, most used first. */
export async function listTags(ctx: TenantCtx): Promise<TagCount[]> {
  const tag = sql<string>`t.tag`;
  const rows = await ctx.db
    .select({ tag, count: sql<number>`count(*)::int` })
    .from(sql`${ca} cross join lateral unnest(${ca.tags}) as t(tag)`)
    .where(and(inTenant(ca, ctx), sql`${ca.status} <> 'archived'`))
    .groupBy(tag)
    .orderBy(desc(sql`count(*)`), asc(tag))
    .limit(200);
  return rows;
}

export async function getAnswer(ctx: TenantCtx, id: string): Promise<AnswerRecord> {
  const row = await loadAnswer(ctx, id);
  if (!row) throw notFound('Canonical answer');
  return row;
}

export async function createAnswer(ctx: TenantCtx, input: CreateCanonicalAnswerBody): Promise<AnswerRecord> {
  // Contributors add drafts; making an entry approved (or archived) from the start is an approver's call.
  if (input.status !== 'draft' || input.ownerId !== undefined || input.reviewIntervalDays !== undefined) {
    authorize(ctx, 'knowledge:approve');
  }
  const key = questionKey(input.question);
  const status = input.status ?? 'approved';
  await assertOwner(ctx, input.ownerId);
  const id = await inTransaction(ctx.db, async (tx) => {
    const t = { ...ctx, db: tx };
    const existing = await existingWithKey(t, key);
    if (existing) throw alreadyInLibrary(existing);
    const now = new Date();
    const [row] = await tx
      .insert(ca)
      .values({
        organizationId: ctx.organizationId,
        workspaceId: ctx.workspaceId,
        question: input.question,
        questionNorm: key,
        answer: input.answer,
        tags: input.tags ?? [],
        status,
        ownerId: input.ownerId === undefined ? ctx.userId : input.ownerId,
        ...(input.reviewIntervalDays !== undefined && { reviewIntervalDays: input.reviewIntervalDays }),
        createdBy: ctx.userId,
        ...(status === 'approved' && { lastVerifiedAt: now, lastVerifiedBy: ctx.userId }),
      })
      .returning({ id: ca.id });
    if (!row) throw new Error('insert returned no row');
    await audit(t, 'canonical_answer_created', 'canonical_answer', row.id, { status });
    return row.id;
  }).catch((err: unknown) => {
    if (isUniqueViolation(err)) throw alreadyInLibrary(null);
    throw err;
  });
  return getAnswer(ctx, id);
}

/** Whether an update touches what only approvers may change (anything but a draft staying a draft, owner, interval). */
export function updateNeedsApprover(current: { status: string }, input: UpdateCanonicalAnswerBody): boolean {
  if (current.status !== 'draft') return true;
  if (input.status !== undefined && input.status !== 'draft') return true;
  return input.ownerId !== undefined || input.reviewIntervalDays !== undefined;
}

/**
 * Applies an edit and keeps the previous state as a version. Approving, or editing the answer of an approved
 * entry, counts as verifying it. Whether the caller must be an approver is decided under the row lock, so a
 * concurrent approval cannot slip a contributor's edit onto an approved entry.
 */
export async function updateAnswer(
  ctx: TenantCtx,
  id: string,
  input: UpdateCanonicalAnswerBody,
): Promise<AnswerRecord> {
  if (input.ownerId !== undefined) await assertOwner(ctx, input.ownerId);
  const key = input.question !== undefined ? questionKey(input.question) : undefined;
  await inTransaction(ctx.db, async (tx) => {
    const t = { ...ctx, db: tx };
    const [cur] = await tx
      .select()
      .from(ca)
      .where(and(inTenant(ca, t), eq(ca.id, id)))
      .for('update');
    if (!cur) throw notFound('Canonical answer');
    if (updateNeedsApprover(cur, input)) authorize(ctx, 'knowledge:approve');
    const next = {
      question: input.question ?? cur.question,
      answer: input.answer ?? cur.answer,
      tags: input.tags ?? cur.tags,
      status: input.status ?? cur.status,
      ownerId: input.ownerId === undefined ? cur.ownerId : input.ownerId,
      reviewIntervalDays: input.reviewIntervalDays ?? cur.reviewIntervalDays,
    };
    const changed = (Object.keys(next) as Array<keyof typeof next>).filter(
      (k) => JSON.stringify(next[k]) !== JSON.stringify(cur[k]),
    );
    if (changed.length === 0) return;
    if (key !== undefined && key !== cur.questionNorm) {
      const other = await existingWithKey(t, key);
      if (other && other !== id) throw alreadyInLibrary(other);
    }
    const verifies = next.status === 'approved' && (cur.status !== 'approved' || changed.includes('answer'));
    await tx.insert(versions).values({
      answerId: cur.id,
      organizationId: cur.organizationId,
      version: cur.version,
      question: cur.question,
      answer: cur.answer,
      tags: cur.tags,
      status: cur.status,
      confidence: cur.confidence,
      source: cur.source,
      ownerId: cur.ownerId,
      replacedBy: ctx.userId,
    });
    const now = new Date();
    await tx
      .update(ca)
      .set({
        ...next,
        ...(key !== undefined && { questionNorm: key }),
        version: cur.version + 1,
        updatedAt: now,
        ...(verifies && { lastVerifiedAt: now, lastVerifiedBy: ctx.userId }),
        // The embedding is of "question\nanswer": stale now; the worker's embedding sweep computes it again.
        ...((changed.includes('question') || changed.includes('answer')) && { embedding: null, embeddingModel: null }),
      })
      .where(and(inTenant(ca, t), eq(ca.id, id)));
    const action =
      next.status !== cur.status
        ? `canonical_answer_${next.status === 'approved' ? 'approved' : next.status === 'archived' ? 'archived' : 'moved_to_draft'}`
        : 'canonical_answer_updated';
    await audit(t, action, 'canonical_answer', id, { changed });
  }).catch((err: unknown) => {
    if (isUniqueViolation(err)) throw alreadyInLibrary(null);
    throw err;
  });
  return getAnswer(ctx, id);
}

/** Re-confirms an approved entry as still true, without changing it. */
export async function verifyAnswer(ctx: TenantCtx, id: string): Promise<AnswerRecord> {
  await inTransaction(ctx.db, async (tx) => {
    const t = { ...ctx, db: tx };
    const [cur] = await tx
      .select({ status: ca.status })
      .from(ca)
      .where(and(inTenant(ca, t), eq(ca.id, id)))
      .for('update');
    if (!cur) throw notFound('Canonical answer');
    if (cur.status !== 'approved') throw conflict('Only approved answers can be verified. Approve it first.');
    await tx
      .update(ca)
      .set({ lastVerifiedAt: new Date(), lastVerifiedBy: ctx.userId })
      .where(and(inTenant(ca, t), eq(ca.id, id)));
    await audit(t, 'canonical_answer_verified', 'canonical_answer', id);
  });
  return getAnswer(ctx, id);
}

export async function deleteAnswer(ctx: TenantCtx, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const t = { ...ctx, db: tx };
    const [row] = await tx
      .delete(ca)
      .where(and(inTenant(ca, t), eq(ca.id, id)))
      .returning({ question: ca.question });
    if (!row) throw notFound('Canonical answer');
    await audit(t, 'canonical_answer_deleted', 'canonical_answer', id, { question: row.question.slice(0, 200) });
  });
}

const replacer = alias(users, 'replacer');
const versionOwner = alias(users, 'version_owner');

/** Earlier states of an entry, newest first. */
export async function listVersions(ctx: TenantCtx, id: string): Promise<AnswerVersionView[]> {
  await getAnswer(ctx, id);
  const rows = await ctx.db
    .select({
      version: versions.version,
      question: versions.question,
      answer: versions.answer,
      tags: versions.tags,
      status: versions.status,
      ownerId: versions.ownerId,
      ownerName: versionOwner.username,
      replacedBy: versions.replacedBy,
      replacerName: replacer.username,
      replacedAt: versions.replacedAt,
    })
    .from(versions)
    .leftJoin(replacer, eq(replacer.id, versions.replacedBy))
    .leftJoin(versionOwner, eq(versionOwner.id, versions.ownerId))
    .where(and(eq(versions.answerId, id), eq(versions.organizationId, ctx.organizationId)))
    .orderBy(desc(versions.version));
  return rows.map((r) => ({
    version: r.version,
    question: r.question,
    answer: r.answer,
    tags: r.tags,
    status: r.status as AnswerStatus,
    owner: r.ownerId && r.ownerName ? { id: r.ownerId, username: r.ownerName } : null,
    replacedBy: r.replacedBy && r.replacerName ? { id: r.replacedBy, username: r.replacerName } : null,
    replacedAt: r.replacedAt.toISOString(),
  }));
}

/** Live entries of the workspace (for organization stats). */
export async function countLiveAnswers(ctx: TenantCtx) {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(ca)
    .where(and(inTenant(ca, ctx), sql`${ca.status} <> 'archived'`));
  return row?.n ?? 0;
}
