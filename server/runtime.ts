import pino from 'pino';
import pretty from 'pino-pretty';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { AppDeps } from './deps';
import type { Database } from './db/client';
import { openConfiguredDatabase } from './db/open-configured';
import { setEngineLanes } from './engine/fair-lanes';
import { createEmbedder, type Embedder } from './embedding/embedder';
import { logOptions } from './http/log-options';
import { closeExtractionThreads, configureExtractionThreads, extractInThread } from './ingest/thread';
import { createLlmClient, type LlmClient } from './llm/client';
import { createMailer, type Mailer } from './mail/mailer';
import { ensureDemoUser } from './modules/auth/demo';
import { purgeExpiredSessions } from './modules/auth/sessions';
import { loadOrCreateSecret } from './secret';
import { createStorage } from './storage/create';
import type { ObjectStorage } from './storage/types';
import { MAX_QUESTION_ATTEMPTS } from './worker/answer-question';
import { releaseClaimsOfPreviousRun } from './worker/claim-questions';
import { MAX_ATTEMPTS as MAX_DOCUMENT_ATTEMPTS } from './worker/process-document';
import { startWorker, type Worker } from './worker/worker';

/**
 * What the runtime is for:
 * - `server` (`npm start`): the API's dependencies, the worker unless WORKER_CONCURRENCY=0, and the upkeep of the
 *   database it owns (demo user, expired sessions, claims a previous run left behind);
 * - `worker` (`npm run worker`): the worker alone, on PostgreSQL;
 * - `embedded` (tests, benchmarks): several runtimes side by side in one process, so nothing process-wide (engine
 *   lanes, the extraction thread pool) is configured or closed, and the shared database is left as it is.
 */
export type RuntimeRole = 'server' | 'worker' | 'embedded';

export type RuntimeOptions = {
  role: RuntimeRole;
  /** Default: readable lines at a terminal for the server, JSON lines otherwise (for log collectors). */
  log?: FastifyBaseLogger;
  /** An already open database (a test's copy of the migrated template); default: the one the config names. */
  database?: Database;
  /** Default: SMTP when SMTP_URL is set, else the dev outbox. */
  mailer?: Mailer;
  /** `false`: no background worker here. `pollMs`: its idle poll (tests poll fast to wait milliseconds, not seconds). */
  worker?: false | { pollMs?: number };
};

/** The configuration with its session secret resolved: SESSION_SECRET, or the one kept in DATA_DIR. */
export type RuntimeConfig = Config & { sessionSecret: string };

export type Runtime = {
  config: RuntimeConfig;
  log: FastifyBaseLogger;
  database: Database;
  storage: ObjectStorage;
  mailer: Mailer;
  llm: LlmClient | null;
  embedder: Embedder | null;
  worker: Worker | null;
  /** What `buildApp` takes. */
  deps: AppDeps;
  /** Stops the worker, then the embedder, the extraction threads (process roles) and the database; in that order. */
  close(): Promise<void>;
};

// The worker never reuses a file's bytes after extraction, so they move to the thread instead of being copied.
const extractDocumentInThread = (bytes: Uint8Array, name: string) => extractInThread(bytes, name, { transfer: true });

/** Opens everything a Verity process runs on, from its configuration (the one composition root). */
export async function openRuntime(parsed: Config, opts: RuntimeOptions): Promise<Runtime> {
  const ownsProcess = opts.role !== 'embedded';
  const log = opts.log ?? processLog(parsed, { readable: opts.role === 'server' && process.stdout.isTTY });
  if (ownsProcess) {
    // On PostgreSQL every query gives other requests their turn; the embedded database's queries do not.
    setEngineLanes(parsed.qa.engineLanes, { yieldAlways: !parsed.databaseUrl });
  }
  const database = opts.database ?? (await openConfiguredDatabase(parsed, log));
  const config: RuntimeConfig = {
    ...parsed,
    sessionSecret: parsed.sessionSecret ?? loadOrCreateSecret(parsed.dataDir),
  };
  const db = database.db;
  const mailer = opts.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db, log });
  if (opts.role === 'server') {
    if (config.demoUser) await ensureDemoUser(db);
    await purgeExpiredSessions(db, { idleMs: config.sessionIdleMs });
  }
  const storage = createStorage(config);
  const llm = createLlmClient(config.llm, log);
  const embedder = await createEmbedder(config.embedding, llm, log);
  if (ownsProcess) await configureExtractionThreads({ size: Math.max(1, config.workerConcurrency) });
  if (opts.role === 'server' && database.kind === 'pglite') {
    // Only this process uses the embedded database, so every claim in it belongs to a run that has ended.
    const resumed = await releaseClaimsOfPreviousRun(db, {
      questions: MAX_QUESTION_ATTEMPTS,
      documents: MAX_DOCUMENT_ATTEMPTS,
    });
    if (resumed > 0) log.info({ questions: resumed }, 'resuming assessment questions a previous run had claimed');
  }
  const concurrency = workerConcurrency(config, opts);
  const worker =
    concurrency > 0
      ? startWorker({
          db,
          storage,
          log,
          extract: extractDocumentInThread,
          concurrency,
          pollMs: opts.worker ? opts.worker.pollMs : undefined,
          staleMs: config.documentClaimMs,
          questionStaleMs: config.questionClaimMs,
          // Answering is CPU work on this process's one thread, and the embedded database runs on that thread
          // too: a second lane there only contends (bench:assessment). On PostgreSQL queries run elsewhere.
          questionConcurrency: database.kind === 'postgres' ? concurrency : 1,
          llm,
          embedder,
          reminders: { mailer, publicUrl: config.publicUrl },
        })
      : null;
  const deps: AppDeps = { db, config, mailer, log, storage, wakeWorker: worker?.wake, llm, embedder };
  return {
    config,
    log,
    database,
    storage,
    mailer,
    llm,
    embedder,
    worker,
    deps,
    close: () =>
      closeInOrder([
        () => worker?.stop(),
        () => embedder?.close(),
        () => (ownsProcess ? closeExtractionThreads() : undefined),
        () => database.close(),
      ]),
  };
}

/**
 * Documents (and assessment questions) this runtime's worker takes at once; 0 runs none. The server runs one unless
 * WORKER_CONCURRENCY=0 (then `npm run worker` processes do the work); a worker process always works.
 */
function workerConcurrency(config: Config, opts: RuntimeOptions): number {
  if (opts.worker === false) return 0;
  return opts.role === 'server' ? config.workerConcurrency : Math.max(1, config.workerConcurrency);
}

/** The process's logger: readable lines for a person at a terminal, JSON lines everywhere else. */
function processLog(config: Config, opts: { readable: boolean }): FastifyBaseLogger {
  return opts.readable
    ? pino(
        logOptions(config.logLevel),
        pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }),
      )
    : pino(logOptions(config.logLevel));
}

/** Runs every step even when one fails (a stuck worker must not keep the database open), then reports the first failure. */
async function closeInOrder(steps: (() => Promise<void> | undefined)[]): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
