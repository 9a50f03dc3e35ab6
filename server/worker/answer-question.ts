import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { assessmentQuestions as aq } from '../db/schema';
import { inTransaction, type Db, type DbOrTx } from '../db/client';
import { answerQuestion, type EngineAnswer } from '../engine/answer';
import type { LlmClient } from '../llm/client';
import type { Embedder } from '../embedding/embedder';
import { QUESTION_MAX_LENGTH } from '../../common/constants';
import type { BrandProfile } from '../../common/schemas/organizations';
import { settleBatch } from '../modules/assessments/settle';
import { brandProfileOf } from '../modules/organizations/service';
import type { ClaimedQuestion } from './claim-questions';

/** After this many tries that failed for a reason other than the question itself, the question is failed. */
export const MAX_QUESTION_ATTEMPTS = 3;

/**
 * While a worker answers question after question, a library change reaches the questions answered this long after
 * it at the latest: re-checking the library before each of a batch's questions cost more than answering it
 * (bench:assessment). The first question after an idle spell always sees the library as it is.
 */
export const LIBRARY_FRESH_MS = 1000;

export const TOO_LONG = `This question is longer than ${QUESTION_MAX_LENGTH} characters, too long to answer automatically. Write its answer by hand.`;
export const GAVE_UP =
  'Answering failed repeatedly. Use Regenerate to try again; if it keeps failing, contact support.';

export type AnswerDeps = {
  db: Db;
  log: FastifyBaseLogger;
  llm?: LlmClient | null;
  embedder?: Embedder | null;
  brands: BrandCache;
  /** How recently checked a library index may be (0: check now). */
  libraryFreshWithinMs?: number;
  /** The claim timeout of the loop (a retry is scheduled by back-dating the claim). */
  staleMs?: number;
};

/** Brand profiles by organization, read at most every few seconds: a 1,000-question batch needs one. */
export class BrandCache {
  private readonly cache = new Map<string, { at: number; brand: BrandProfile | undefined }>();
  constructor(private readonly ttlMs = 10_000) {}
  async get(db: Db, organizationId: string): Promise<BrandProfile | undefined> {
    const hit = this.cache.get(organizationId);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.brand;
    const brand = await brandProfileOf(db, organizationId);
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(organizationId, { at: Date.now(), brand });
    return brand;
  }
}

/** A claimed question's answer as the engine made it (or why there is none), not yet stored. */
export type ComputedAnswer = { q: ClaimedQuestion; result: EngineAnswer | null; failure: string | null };

/** 'error': the database refused to store it; its claim goes stale and the question is taken up again. */
export type AnswerOutcome = 'completed' | 'failed' | 'retry' | 'lost' | 'error';

/**
 * Answers one claimed question with the answer engine and stores the answer, in one transaction that first checks
 * the claim is still ours: a slow run whose claim went stale and was taken over drops its answer instead of
 * writing a second one. Returns what happened.
 */
export async function answerClaimedQuestion(
  deps: AnswerDeps,
  q: ClaimedQuestion,
  /** The question's vector, embedded ahead with the rest of its claim (question-loop.ts), taken when answering. */
  queryEmbedding?: () => Promise<ArrayLike<number> | null>,
): Promise<AnswerOutcome> {
  const [outcome] = await storeAnswers(deps, [await computeAnswer(deps, q, queryEmbedding)]);
  return outcome ?? 'lost';
}

/** The engine's answer to a claimed question; an engine failure is kept as what to store, never thrown. */
export async function computeAnswer(
  deps: AnswerDeps,
  q: ClaimedQuestion,
  queryEmbedding?: () => Promise<ArrayLike<number> | null>,
): Promise<ComputedAnswer> {
  const { db, log } = deps;
  if (q.question.length > QUESTION_MAX_LENGTH) return { q, result: null, failure: TOO_LONG };
  try {
    const scope = { db, organizationId: q.organizationId, workspaceId: q.workspaceId };
    const result = await answerQuestion(
      scope,
      q.question,
      await deps.brands.get(db, q.organizationId),
      { llm: deps.llm, embedder: deps.embedder, queryEmbedding: queryEmbedding?.() },
      {
        libraryFreshWithinMs: deps.libraryFreshWithinMs ?? 0,
      },
    );
    return { q, result, failure: null };
  } catch (err) {
    log.warn({ err, questionId: q.id, attempt: q.attempts }, 'answering an assessment question failed');
    return { q, result: null, failure: q.attempts >= MAX_QUESTION_ATTEMPTS ? GAVE_UP : null };
  }
}

/**
 * Stores several answers in one transaction (on the embedded database each statement is a round trip through the
 * one connection, and a transaction per question cost nearly half of a question's time in bench:assessment). Each
 * answer is written only while its claim is still ours; each batch touched is settled once, after all of them, its
 * rows locked in id order so that two workers settling the same batches never wait on each other in a circle.
 */
export async function storeAnswers(deps: AnswerDeps, answers: readonly ComputedAnswer[]): Promise<AnswerOutcome[]> {
  if (answers.length <= 1) return storeTogether(deps, answers);
  try {
    return await storeTogether(deps, answers);
  } catch (err) {
    // One answer the database refuses must not take its claim-mates down with it: each is tried on its own.
    deps.log.warn({ err, questionIds: answers.map((a) => a.q.id) }, 'storing a claim of answers failed; one by one');
    const outcomes: AnswerOutcome[] = [];
    for (const answer of answers) {
      try {
        outcomes.push(...(await storeTogether(deps, [answer])));
      } catch (one) {
        deps.log.error({ err: one, questionId: answer.q.id }, 'storing an assessment answer failed');
        outcomes.push('error');
      }
    }
    return outcomes;
  }
}

async function storeTogether(deps: AnswerDeps, answers: readonly ComputedAnswer[]): Promise<AnswerOutcome[]> {
  if (answers.length === 0) return [];
  return inTransaction(deps.db, async (tx) => {
    const outcomes: AnswerOutcome[] = [];
    const touched = new Map<string, ClaimedQuestion>();
    for (const answer of answers) {
      const outcome = await writeAnswer(tx, deps, answer);
      outcomes.push(outcome);
      if (outcome !== 'lost') touched.set(answer.q.batchId, answer.q);
    }
    for (const batchId of [...touched.keys()].sort()) {
      const q = touched.get(batchId);
      if (q) await settleBatch(tx, q, batchId);
    }
    return outcomes;
  });
}

async function writeAnswer(
  tx: DbOrTx,
  deps: AnswerDeps,
  { q, result, failure }: ComputedAnswer,
): Promise<AnswerOutcome> {
  const ours = and(eq(aq.id, q.id), eq(aq.status, 'processing'), eq(aq.claimedAt, q.claimedAt ?? new Date(0)));
  const now = new Date();
  const set = result
    ? {
        status: 'completed',
        answer: result.answer,
        answerType: result.answerType,
        confidence: result.confidence,
        sources: result.sources,
        errorMessage: null,
        claimedAt: null,
        answeredAt: now,
        answerCount: sql`${aq.answerCount} + 1`,
        // A fresh answer of the engine's own: whatever a person wrote or approved before is replaced.
        answerOrigin: 'machine',
        // Its snapshot, which a person's later edit leaves alone: the review's outcome is told against it.
        machineAnswer: result.answer,
        machineAnswerType: result.answerType,
        machineConfidence: result.confidence,
        machineSources: result.sources,
        editedBy: null,
        // What "Save to library" made of the previous answer is not this one's.
        libraryEntryId: null,
        librarySuggestionId: null,
        // Never undoes a reviewer's "not applicable" (marked while this answer was being made).
        reviewState: sql`case when ${aq.reviewState} = 'not_applicable' then 'not_applicable' else ${
          result.answerType === 'unknown' ? 'needs_answer' : 'drafted'
        } end`,
        reviewedAt: null,
        reviewedBy: null,
        updatedAt: now,
      }
    : failure
      ? { status: 'failed', errorMessage: failure, claimedAt: null, updatedAt: now }
      : // A passing fault (the database, the LLM endpoint): tried again once its claim goes stale, which is made
        // to happen after a growing pause (2, 4… s) rather than at once, so a short outage does not use up
        // every try within milliseconds.
        {
          claimedAt: new Date(now.getTime() - (deps.staleMs ?? 0) + 1000 * 2 ** q.attempts),
          updatedAt: now,
        };
  const [row] = await tx.update(aq).set(set).where(ours).returning({ id: aq.id });
  if (!row) return 'lost';
  if (result) {
    // An assessment started from the Ask screen records its answers in that chat, for Chat History: each question's
    // first answer only, so a Regenerate does not make the chat hold more questions than the questionnaire.
    await tx.execute(sql`
      insert into qa_entries (organization_id, workspace_id, session_id, user_id, question, answer, answer_type,
        confidence, sources, last_verified_at)
      select b.organization_id, b.workspace_id, b.session_id, b.created_by, ${q.question}, ${result.answer},
        ${result.answerType}, ${result.confidence}, ${JSON.stringify(result.sources)}::jsonb, ${result.lastVerifiedAt}
      from assessment_batches b
      where b.organization_id = ${q.organizationId} and b.id = ${q.batchId} and b.session_id is not null
        and b.created_by is not null
        and (select answer_count from assessment_questions
          where organization_id = ${q.organizationId} and id = ${q.id}) = 1`);
  }
  return result ? 'completed' : failure ? 'failed' : 'retry';
}
