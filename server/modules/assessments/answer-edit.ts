import { and, eq, ne } from 'drizzle-orm';
import { assessmentQuestions as aq, canonicalAnswers as ca, documents } from '../../db/schema';
import { inTransaction } from '../../db/client';
import { badRequest, conflict, notFound } from '../../errors';
import type { TenantCtx } from '../../context';
import { inTenant } from '../../tenancy';
import type { AnswerChoiceBody, UpdateQuestionBody } from '../../../common/schemas/assessments';
import type { AnswerSource } from '../../../common/schemas/qa';
import { audit } from '../audit/service';
import { hasAnswer, storedSources, type QuestionRow } from './presenters';
import { keepsCustomerAnswer, loadQuestion, viewQuestion } from './review';
import { loadBatch } from './service';
import { settleBatch } from './settle';

/** The library entry or document a person says their answer rests on, as a source the review screen can link. */
async function citedSource(ctx: TenantCtx, cite: NonNullable<UpdateQuestionBody['cite']>): Promise<AnswerSource> {
  if (cite.type === 'library') {
    const [entry] = await ctx.db
      .select({ id: ca.id, question: ca.question })
      .from(ca)
      .where(and(inTenant(ca, ctx), eq(ca.id, cite.id), ne(ca.status, 'archived')));
    if (!entry) throw notFound('Library entry');
    return { type: 'library', canonicalAnswerId: entry.id, question: entry.question, score: 1 };
  }
  const [doc] = await ctx.db
    .select({ id: documents.id, name: documents.originalName })
    .from(documents)
    .where(and(inTenant(documents, ctx), eq(documents.id, cite.id)));
  if (!doc) throw notFound('Document');
  return { type: 'document', documentId: doc.id, name: doc.name, score: 1 };
}

/** Whether `cite` names what the answer already rests on: nothing more for the engine's, the same source for a person's. */
function citesAsBefore(current: QuestionRow, cite: UpdateQuestionBody['cite']): boolean {
  if (cite === undefined) return true;
  if (current.answerOrigin !== 'person') return cite === null;
  const [source] = storedSources(current);
  if (!cite) return !source;
  return cite.type === 'library' ? source?.canonicalAnswerId === cite.id : source?.documentId === cite.id;
}

/**
 * A person's answer (PRODUCT §9 Review). It is theirs from now on: the engine's type, confidence and sources no
 * longer describe it, so they are cleared and only what the person cites is kept. The engine's own answer stays in
 * its snapshot (`machine_*`), which the review's outcome is told against (review-outcomes.ts). It is drafted again whatever
 * state it was in (a changed answer needs a fresh review, so an approval is withdrawn), and it wins over a worker
 * still answering: the question leaves `processing`, so the worker's claim check drops its late answer.
 */
export async function updateQuestion(ctx: TenantCtx, batchId: string, qid: string, body: UpdateQuestionBody) {
  const current = await loadQuestion(ctx, batchId, qid);
  if (current.reviewState === 'not_applicable') {
    throw conflict('This question is marked not applicable. Reopen it before answering it.');
  }
  const answer = body.answer.trim();
  // Saving what is already there changes nothing: not the author, not an approval (an editor opened and saved).
  if (answer === current.answer && citesAsBefore(current, body.cite)) return viewQuestion(ctx, batchId, qid);
  const sources = body.cite ? [await citedSource(ctx, body.cite)] : [];
  const now = new Date();
  await inTransaction(ctx.db, async (tx) => {
    await tx
      .update(aq)
      .set({
        answer,
        answerType: 'draft',
        answerOrigin: 'person',
        confidence: null,
        sources,
        editedBy: ctx.userId,
        answeredAt: now,
        errorMessage: null,
        status: 'completed',
        claimedAt: null,
        reviewState: 'drafted',
        reviewedAt: null,
        reviewedBy: null,
        // A changed answer may be saved to the library again; the earlier save was of the earlier text. Its dropdown
        // follows the new words until someone picks again.
        ...(answer !== current.answer && { libraryEntryId: null, librarySuggestionId: null, answerChoice: null }),
        updatedAt: now,
      })
      .where(and(inTenant(aq, ctx), eq(aq.id, qid)));
    await settleBatch(tx, ctx, batchId);
    await audit({ ...ctx, db: tx }, 'assessment_answer_written', 'assessment', batchId, {
      questionId: qid,
      cited: body.cite ?? null,
      withdrewApproval: current.reviewState === 'approved',
    });
  });
  return viewQuestion(ctx, batchId, qid);
}

/**
 * The dropdown value a person picks for the question's answer cell (`null`: the export chooses from the answer
 * again; '': the cell is left empty). The value is part of what an approver approves, so a change withdraws an
 * approval; the answer text and its author are left as they are.
 */
export async function chooseAnswerValue(ctx: TenantCtx, batchId: string, qid: string, body: AnswerChoiceBody) {
  const batch = await loadBatch(ctx, batchId);
  const current = await loadQuestion(ctx, batchId, qid);
  const allowed = current.allowedValues ?? [];
  if (allowed.length === 0) throw conflict("This question's answer cell is not a dropdown.");
  if (keepsCustomerAnswer(batch, current)) {
    throw conflict("The customer's own answer stays in this file, so its dropdown is left as they set it.");
  }
  if (current.reviewState === 'not_applicable') {
    throw conflict('This question is marked not applicable. Reopen it before choosing its answer.');
  }
  if (current.status === 'processing') {
    throw conflict('A new answer is being written for this question. Choose the value once it is there.');
  }
  if (!hasAnswer(current)) throw conflict('Write an answer before choosing the dropdown value.');
  const value = body.value;
  if (value !== null && value !== '' && !allowed.includes(value)) {
    throw badRequest(`value must be one of the dropdown's values: ${allowed.map((v) => `"${v}"`).join(', ')}`);
  }
  if (value === current.answerChoice) return viewQuestion(ctx, batchId, qid);
  const withdraws = current.reviewState === 'approved';
  const now = new Date();
  await inTransaction(ctx.db, async (tx) => {
    // Only from the state it was read in: an approval landing meanwhile must not keep a value nobody approved. The
    // answer's time moves on, so an approver still looking at the earlier value is told it changed.
    const changed = await tx
      .update(aq)
      .set({
        answerChoice: value,
        answeredAt: now,
        ...(withdraws && { reviewState: 'drafted', reviewedAt: null, reviewedBy: null }),
        updatedAt: now,
      })
      .where(and(inTenant(aq, ctx), eq(aq.id, qid), eq(aq.reviewState, current.reviewState)))
      .returning({ id: aq.id });
    if (changed.length === 0) throw conflict('This question changed meanwhile. Reload it and choose again.');
    if (withdraws) await settleBatch(tx, ctx, batchId);
    await audit({ ...ctx, db: tx }, 'assessment_answer_choice_set', 'assessment', batchId, {
      questionId: qid,
      value,
      withdrewApproval: withdraws,
    });
  });
  return viewQuestion(ctx, batchId, qid);
}
