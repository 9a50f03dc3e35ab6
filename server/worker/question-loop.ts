import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { LlmClient } from '../llm/client';
import type { Embedder } from '../embedding/embedder';
import { answerClaimedQuestion, BrandCache, GAVE_UP, LIBRARY_FRESH_MS, MAX_QUESTION_ATTEMPTS } from './answer-question';
import { claimQuestions, failExhaustedClaims } from './claim-questions';
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
 * Answers assessment questions in the background (ARCHITECTURE §7), `concurrency` at a time: claim as many as there are
 * free lanes, answer each, and claim again as lanes free up; sleep when nothing waits.
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

  const loop = async () => {
    while (!stopped) {
      // On the embedded database a query resolves without any I/O, so claim → answer → claim would be one endless
      // chain of microtasks, and the HTTP server and timers would not run until the batch ends. Yield first.
      await yieldToEventLoop();
      const free = opts.concurrency - running;
      let claimed: Awaited<ReturnType<typeof claimQuestions>> = [];
      if (free > 0) {
        try {
          claimed = await claimQuestions(opts.db, free, opts.staleMs, MAX_QUESTION_ATTEMPTS);
        } catch (err) {
          if (!stopped) opts.log.error({ err }, 'worker could not claim assessment questions');
        }
      }
      const libraryFreshWithinMs = busy ? LIBRARY_FRESH_MS : 0;
      busy = claimed.length > 0 || running > 0;
      for (const q of claimed) {
        running += 1;
        void answerClaimedQuestion(
          {
            db: opts.db,
            log: opts.log,
            llm: opts.llm,
            embedder: opts.embedder,
            brands,
            libraryFreshWithinMs,
            staleMs: opts.staleMs,
          },
          q,
        )
          .then((outcome) => {
            if (outcome !== 'completed') opts.log.info({ questionId: q.id, outcome }, 'assessment question');
          })
          .catch((err: unknown) => opts.log.error({ err, questionId: q.id }, 'assessment question crashed'))
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
