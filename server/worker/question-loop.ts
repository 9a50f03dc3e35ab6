import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { LlmClient } from '../llm/client';
import type { Embedder } from '../embedding/embedder';
import {
  BrandCache,
  computeAnswer,
  storeAnswers,
  type ComputedAnswer,
  GAVE_UP,
  LIBRARY_FRESH_MS,
  MAX_QUESTION_ATTEMPTS,
  type AnswerDeps,
} from './answer-question';
import { claimQuestions, failExhaustedClaims, releaseUnansweredClaims, type ClaimedQuestion } from './claim-questions';
import { embedQuestions } from '../engine/answer';
import { QUESTION_MAX_LENGTH } from '../../common/constants';
import { inTransaction } from '../db/client';
import { settleBatch } from '../modules/assessments/settle';
import { wakeableSleep } from './wakeable-sleep';

export type QuestionLoopOptions = {
  db: Db;
  log: FastifyBaseLogger;
  llm?: LlmClient | null;
  embedder?: Embedder | null;
  /** Questions answered at once (WORKER_CONCURRENCY). */
  concurrency: number;
  pollMs: number;
  /**
   * A claim older than this belongs to a worker that died. Questions take milliseconds (seconds with an LLM, whose
   * calls time out), so a dead worker's questions go back to work within minutes, not the documents' ten.
   */
  staleMs: number;
};

export type Loop = { wake: () => void; stop: () => Promise<void> };

/**
 * Questions a lane claims at once and answers one after another. Claiming several costs one claim's queries instead
 * of one per question, and their vectors are made in one call to the embedding thread (each question still embedded
 * alone, as Ask embeds it) while the first ones are answered (bench:assessment). With an LLM a question takes seconds, so a lane claims one at a time: a claim waiting
 * behind seven slow answers could go stale.
 */
const CLAIM_AHEAD = 8;

/**
 * Answers assessment questions in the background (ARCHITECTURE §7), `concurrency` lanes at a time: claim for the free
 * lanes, answer each lane's questions in order, and claim again as lanes free up; sleep when nothing waits.
 */
export function startQuestionLoop(opts: QuestionLoopOptions): Loop {
  const brands = new BrandCache();
  let stopped = false;
  let running = 0;
  // After an idle spell the library may have changed just before this work arrived (an edit, then Regenerate).
  let busy = false;

  const idle = wakeableSleep();

  // When idle: questions whose last allowed try died with its worker are failed, not taken up forever.
  const failExhausted = async () => {
    try {
      for (const batch of await failExhaustedClaims(opts.db, opts.staleMs, MAX_QUESTION_ATTEMPTS, GAVE_UP)) {
        await inTransaction(opts.db, (tx) => settleBatch(tx, batch, batch.batchId));
      }
    } catch (err) {
      if (!stopped) opts.log.error({ err }, 'worker could not fail exhausted assessment questions');
    }
  };

  const ahead = opts.llm ? 1 : CLAIM_AHEAD;

  /** One lane's questions, one after another, their vectors asked for first (one call per organization). */
  const answerInOrder = async (deps: AnswerDeps, questions: ClaimedQuestion[]) => {
    // Each question's share of its claim's embedding call is taken when the question is answered.
    const vectors = new Map<string, () => Promise<ArrayLike<number> | null>>();
    const embedder = opts.embedder;
    if (embedder && questions.length > 1) {
      for (const org of new Set(questions.map((q) => q.organizationId))) {
        const mine = questions.filter((q) => q.organizationId === org && q.question.length <= QUESTION_MAX_LENGTH);
        // Never rejects: a failed call leaves each question to embed its own (the engine does when given null).
        const batch = embedQuestions(
          embedder,
          mine.map((q) => q.question),
          org,
        ).catch((err: unknown) => {
          opts.log.warn({ err }, 'embedding a claim of questions failed; embedding them one by one');
          return null;
        });
        mine.forEach((q, i) => vectors.set(q.id, () => batch.then((v) => v?.[i] ?? null)));
      }
    }
    // The answers are stored together once the lane's questions are answered (one transaction instead of one per
    // question), so a batch's progress moves a claim at a time.
    const answered: ComputedAnswer[] = [];
    const store = async () => {
      if (answered.length === 0) return;
      const group = answered.splice(0);
      try {
        const outcomes = await storeAnswers(deps, group);
        outcomes.forEach((outcome, i) => {
          if (outcome !== 'completed') opts.log.info({ questionId: group[i]?.q.id, outcome }, 'assessment question');
        });
      } catch (err) {
        // Their claims go stale and the questions are taken up again, as after a crash.
        opts.log.error({ err, questionIds: group.map((a) => a.q.id) }, 'storing assessment answers failed');
      }
    };
    for (const [i, q] of questions.entries()) {
      if (stopped) {
        // Stopping: what is answered is kept, and the questions not begun go back to the queue at once instead of
        // waiting for their claims to go stale.
        await store();
        await releaseUnansweredClaims(opts.db, questions.slice(i)).catch((err: unknown) =>
          opts.log.error({ err }, 'worker could not give back its unanswered claims'),
        );
        return;
      }
      try {
        answered.push(await computeAnswer(deps, q, vectors.get(q.id)));
      } catch (err) {
        opts.log.error({ err, questionId: q.id }, 'assessment question crashed');
      }
    }
    await store();
  };

  const loop = async () => {
    while (!stopped) {
      // On the embedded database a query resolves without any I/O, so claim → answer → claim would be one endless
      // chain of microtasks, and the HTTP server and timers would not run until the batch ends. Yield first.
      await yieldToEventLoop();
      const free = opts.concurrency - running;
      let claimed: ClaimedQuestion[] = [];
      if (free > 0) {
        try {
          claimed = await claimQuestions(opts.db, free * ahead, opts.staleMs, MAX_QUESTION_ATTEMPTS);
        } catch (err) {
          if (!stopped) opts.log.error({ err }, 'worker could not claim assessment questions');
        }
      }
      const libraryFreshWithinMs = busy ? LIBRARY_FRESH_MS : 0;
      busy = claimed.length > 0 || running > 0;
      // The claim dealt out over the free lanes in turn, so each lane's questions come from the batches in turn too.
      const lanes = Array.from({ length: Math.min(free, claimed.length) }, (_, lane) =>
        claimed.filter((_, i) => i % free === lane),
      );
      for (const questions of lanes) {
        running += 1;
        const deps = {
          db: opts.db,
          log: opts.log,
          llm: opts.llm,
          embedder: opts.embedder,
          brands,
          libraryFreshWithinMs,
          staleMs: opts.staleMs,
        };
        void answerInOrder(deps, questions)
          .catch((err: unknown) => opts.log.error({ err }, 'assessment questions crashed'))
          .finally(() => {
            running -= 1;
            idle.wake();
          });
      }
      if (claimed.length === 0 && running === 0) await failExhausted();
      if (claimed.length === 0 || running >= opts.concurrency) await idle.sleep(opts.pollMs);
    }
  };
  const done = loop();

  return {
    wake: idle.wake,
    stop: async () => {
      stopped = true;
      idle.wake();
      await done;
      // In-flight answers finish, so their claims are not left to go stale.
      while (running > 0) await new Promise((r) => setTimeout(r, 10));
    },
  };
}
