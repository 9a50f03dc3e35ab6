import { and, eq } from 'drizzle-orm';
import { assessmentQuestions as aq, canonicalAnswers as ca, librarySuggestions as ls } from '../../db/schema';
import { badRequest } from '../../errors';
import { TAGS_MAX } from '../../../common/constants';
import { authorize } from '../../authorize';
import { can } from '../../../common/policies';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';
import { CreateCanonicalAnswerBody } from '../../../common/schemas/knowledge';
import type { SaveToLibraryResult } from '../../../common/schemas/assessments';
import type { z } from 'zod';
import { createAnswer, updateAnswer } from '../knowledge/service';
import { createSuggestion, entryWithQuestion } from '../knowledge/suggestions';
import { brandProfileOf } from '../organizations/service';
import { hasAnswer } from './presenters';
import { loadQuestion } from './review';

type Saved = z.infer<typeof SaveToLibraryResult>;

/** What an earlier save of this question made, while it still stands (an entry, or a suggestion not yet decided). */
async function earlierSave(ctx: TenantCtx, q: Awaited<ReturnType<typeof loadQuestion>>): Promise<Saved | null> {
  if (q.libraryEntryId) {
    const [entry] = await ctx.db
      .select({ id: ca.id })
      .from(ca)
      .where(and(inTenant(ca, ctx), eq(ca.id, q.libraryEntryId)));
    if (entry) return { status: 'approved', canonicalAnswerId: entry.id, suggestionId: q.librarySuggestionId };
  }
  if (q.librarySuggestionId) {
    const [suggestion] = await ctx.db
      .select({ id: ls.id, status: ls.status })
      .from(ls)
      .where(and(inTenant(ls, ctx), eq(ls.id, q.librarySuggestionId)));
    if (suggestion?.status === 'pending')
      return { status: 'pending', canonicalAnswerId: null, suggestionId: suggestion.id };
  }
  return null;
}

/** An entry's tags with these added (each once, at most TAGS_MAX). */
async function withTags(ctx: TenantCtx, entryId: string, tags: string[]): Promise<string[]> {
  const [entry] = await ctx.db
    .select({ tags: ca.tags })
    .from(ca)
    .where(and(inTenant(ca, ctx), eq(ca.id, entryId)));
  return [...new Set([...(entry?.tags ?? []), ...tags])].slice(0, TAGS_MAX);
}

/**
 * Saves a reviewed answer to the library (PRODUCT §5): an approved entry when the caller may approve entries, else a
 * suggestion that waits in the approvers' inbox. Saving the same answer again returns what the first save made
 * rather than an error or a second copy; after a rejection, or once the entry is gone, it may be saved anew. The
 * brand's disclaimers, which the engine appended, are not part of the entry.
 */
export async function saveToLibrary(ctx: TenantCtx, batchId: string, qid: string, tags: string[]): Promise<Saved> {
  authorize(ctx, 'knowledge:create_draft');
  const q = await loadQuestion(ctx, batchId, qid);
  if (!hasAnswer(q) || !q.answer) {
    throw badRequest('Write or accept an answer for this question before saving it to the library');
  }
  const earlier = await earlierSave(ctx, q);
  if (earlier) return earlier;
  const disclaimers = (await brandProfileOf(ctx.db, ctx.organizationId))?.disclaimers.trim();
  const answer =
    disclaimers && q.answer.endsWith(`\n\n${disclaimers}`)
      ? q.answer.slice(0, -disclaimers.length - 2).trim()
      : q.answer;
  const input = CreateCanonicalAnswerBody.safeParse({ question: q.question, answer, tags, status: 'approved' });
  if (!input.success) throw badRequest(input.error.issues[0]?.message ?? 'This answer cannot be saved to the library');
  if (can(ctx.role, 'knowledge:approve')) {
    // As an approved suggestion would: a question the library already has gets this answer as its next version,
    // keeping its own wording and tags (plus any given here).
    const existing = await entryWithQuestion(ctx, q.question);
    const entry = existing
      ? await updateAnswer(ctx, existing, {
          answer: input.data.answer,
          status: 'approved',
          ...(tags.length > 0 && { tags: await withTags(ctx, existing, tags) }),
        })
      : await createAnswer(ctx, input.data);
    await ctx.db
      .update(aq)
      .set({ libraryEntryId: entry.id, updatedAt: new Date() })
      .where(and(inTenant(aq, ctx), eq(aq.id, qid)));
    return { status: 'approved', canonicalAnswerId: entry.id, suggestionId: null };
  }
  const suggestion = await createSuggestion(ctx, {
    question: input.data.question,
    answer: input.data.answer,
    tags: input.data.tags ?? [],
    sourceBatchId: batchId,
  });
  await ctx.db
    .update(aq)
    .set({ librarySuggestionId: suggestion.id, libraryEntryId: null, updatedAt: new Date() })
    .where(and(inTenant(aq, ctx), eq(aq.id, qid)));
  return { status: 'pending', canonicalAnswerId: null, suggestionId: suggestion.id };
}
