import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { ObjectStorage } from '../storage/types';
import { claimDocuments, failExhaustedDocuments } from './claim';
import { GAVE_UP, MAX_ATTEMPTS, processDocument, type Extract } from './process-document';
import { sweepExpiredUploads, sweepOrphanUploads } from './sweep';
import { startEmbedLoop } from './embed-sweep';
import { remindOverdue } from '../modules/assessments/notifications';
import type { Mailer } from '../mail/mailer';
import { startQuestionLoop } from './question-loop';
import { wakeableSleep } from './wakeable-sleep';
import type { LlmClient } from '../llm/client';
import type { Embedder } from '../embedding/embedder';

export type WorkerOptions = {
  db: Db;
  storage: ObjectStorage;
  log: FastifyBaseLogger;
  extract: Extract;
  concurrency: number;
  /** Idle poll interval; a wake() call skips the wait. */
  pollMs?: number;
  /**
   * A document claim older than this belongs to a worker that died (WORKER_DOCUMENT_CLAIM_SECONDS). A live worker
   * renews its claims four times per period while it extracts, so this need not cover the longest file.
   */
  staleMs?: number;
  /** How often abandoned uploads are swept (0: never). */
  sweepEveryMs?: number;
  /** The OpenAI-compatible endpoint, for generated document answers. */
  llm?: LlmClient | null;
  /** With an embedder (local model or endpoint), entries and chunks are embedded in the background (embed-sweep.ts). */
  embedder?: Embedder | null;
  /** Idle interval of the embedding sweep (default: five poll intervals). */
  embedEveryMs?: number;
  /** An assessment question claimed longer ago than this is taken over (its worker died). */
  questionStaleMs?: number;
  /** Questions answered at once (default: `concurrency`). */
  questionConcurrency?: number;
  /** With a mailer, assignees of overdue assessment questions are reminded (on the upload-link sweep's schedule). */
  reminders?: { mailer: Mailer; publicUrl: string };
};

export type Worker = { wake: () => void; stop: () => Promise<void> };

/**
 * The background loop (ARCHITECTURE §7) that runs inside `npm start` and alone in `npm run worker`: claim waiting
 * documents, extract them (off the event loop, in extraction threads), store the chunks; repeat, sleeping when idle.
 * Beside it, the assessment questions' loop (question-loop.ts) and, with embeddings configured, the embedding sweep.
 */
export function startWorker(opts: WorkerOptions): Worker {
  const pollMs = opts.pollMs ?? 1000;
  const staleMs = opts.staleMs ?? 10 * 60_000;
  const heartbeatMs = Math.max(50, Math.floor(staleMs / 4));
  let stopped = false;
  let running = 0;
  const sweepEveryMs = opts.sweepEveryMs ?? 3600_000;
  let nextSweep = Date.now() + Math.min(sweepEveryMs, 60_000);
  // Abandoned uploads go within minutes of their link's expiry, not at the next hourly listing of the bucket.
  const linkSweepEveryMs = sweepEveryMs > 0 ? Math.min(sweepEveryMs, 5 * 60_000) : 0;
  let nextLinkSweep = Date.now() + Math.min(linkSweepEveryMs, 60_000);
  const questionLoop = startQuestionLoop({
    db: opts.db,
    log: opts.log,
    llm: opts.llm,
    embedder: opts.embedder,
    concurrency: opts.questionConcurrency ?? opts.concurrency,
    pollMs,
    staleMs: opts.questionStaleMs ?? 2 * 60_000,
  });
  const embedLoop = opts.embedder
    ? startEmbedLoop({ db: opts.db, embedder: opts.embedder, log: opts.log, everyMs: opts.embedEveryMs ?? pollMs * 5 })
    : null;

  const idle = wakeableSleep();

  // When idle: documents whose last allowed try died with its worker are failed, not taken up forever.
  const failExhausted = async () => {
    try {
      const ids = await failExhaustedDocuments(opts.db, staleMs, MAX_ATTEMPTS, GAVE_UP);
      if (ids.length > 0) opts.log.warn({ documentIds: ids }, 'documents failed: their worker died on every try');
    } catch (err) {
      if (!stopped) opts.log.error({ err }, 'worker could not fail exhausted documents');
    }
  };

  const loop = async () => {
    while (!stopped) {
      const free = opts.concurrency - running;
      let claimed: Awaited<ReturnType<typeof claimDocuments>> = [];
      if (free > 0) {
        try {
          claimed = await claimDocuments(opts.db, free, staleMs, MAX_ATTEMPTS);
        } catch (err) {
          if (!stopped) opts.log.error({ err }, 'worker could not claim documents');
        }
      }
      for (const doc of claimed) {
        running += 1;
        void processDocument({ ...opts, heartbeatMs }, doc)
          .then((outcome) => {
            opts.log.info({ documentId: doc.id, outcome }, 'document processed');
            if (outcome === 'ready') embedLoop?.wake();
          })
          .catch((err: unknown) => opts.log.error({ err, documentId: doc.id }, 'document processing crashed'))
          .finally(() => {
            running -= 1;
            idle.wake();
          });
      }
      if (sweepEveryMs > 0 && Date.now() >= nextSweep) {
        nextSweep = Date.now() + sweepEveryMs;
        await sweepOrphanUploads(opts.db, opts.storage)
          .then((keys) => keys.length > 0 && opts.log.info({ count: keys.length }, 'abandoned uploads removed'))
          .catch((err: unknown) => opts.log.warn({ err }, 'sweeping abandoned uploads failed'));
      }
      if (linkSweepEveryMs > 0 && Date.now() >= nextLinkSweep) {
        nextLinkSweep = Date.now() + linkSweepEveryMs;
        await sweepExpiredUploads(opts.db, opts.storage)
          .then((keys) => keys.length > 0 && opts.log.info({ count: keys.length }, 'expired upload links swept'))
          .catch((err: unknown) => opts.log.warn({ err }, 'sweeping expired upload links failed'));
        if (opts.reminders) {
          await remindOverdue(opts.db, opts.reminders.mailer, opts.reminders.publicUrl)
            .then((r) => r.sent + r.failed > 0 && opts.log.info(r, 'overdue question reminders e-mailed'))
            .catch((err: unknown) => opts.log.warn({ err }, 'reminding assignees of overdue questions failed'));
        }
      }
      if (claimed.length === 0 && running === 0) await failExhausted();
      if (claimed.length === 0 || running >= opts.concurrency) await idle.sleep(pollMs);
    }
  };
  const done = loop();

  return {
    wake: () => {
      idle.wake();
      questionLoop.wake();
    },
    stop: async () => {
      stopped = true;
      idle.wake();
      await Promise.all([done, embedLoop?.stop(), questionLoop.stop()]);
      // Let in-flight documents finish so their claims are not left to go stale.
      while (running > 0) await new Promise((r) => setTimeout(r, 20));
    },
  };
}
