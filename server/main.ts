import pino from 'pino';
import { setEngineLanes } from './engine/fair-lanes';
import pretty from 'pino-pretty';
import { logOptions } from './http/log-options';
import { loadConfig } from './config';
import { openConfiguredDatabase } from './db/open-configured';
import { buildApp } from './app';
import { createMailer } from './mail/mailer';
import { ensureDemoUser } from './modules/auth/demo';
import { purgeExpiredSessions } from './modules/auth/sessions';
import { createStorage } from './storage/create';
import { loadOrCreateSecret } from './secret';
import { startWorker, type Worker } from './worker/worker';
import { releaseClaimsOfPreviousRun } from './worker/claim-questions';
import { MAX_QUESTION_ATTEMPTS } from './worker/answer-question';
import { MAX_ATTEMPTS as MAX_DOCUMENT_ATTEMPTS } from './worker/process-document';
import { closeExtractionThreads, configureExtractionThreads, extractInThread } from './ingest/thread';
import { createLlmClient } from './llm/client';
import { createEmbedder } from './embedding/embedder';

/** Entry: config → database (migrated) → app → listen. One process serves the API and the web app. */
// The worker never reuses a file's bytes after extraction, so they move to the thread instead of being copied.
const extractDocumentInThread = (bytes: Uint8Array, name: string) => extractInThread(bytes, name, { transfer: true });

async function main() {
  const config = loadConfig();
  // On PostgreSQL every query gives other requests their turn; the embedded database's queries do not.
  setEngineLanes(config.qa.engineLanes, { yieldAlways: !config.databaseUrl });
  // Readable lines for a person at a terminal; JSON lines (for log collectors) everywhere else.
  const log = process.stdout.isTTY
    ? pino(
        logOptions(config.logLevel),
        pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }),
      )
    : pino(logOptions(config.logLevel));
  const database = await openConfiguredDatabase(config);
  if (!config.sessionSecret) config.sessionSecret = loadOrCreateSecret(config.dataDir);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db: database.db, log });
  if (config.demoUser) await ensureDemoUser(database.db);
  await purgeExpiredSessions(database.db, { idleMs: config.sessionIdleMs });

  const storage = createStorage(config);
  const llm = createLlmClient(config.llm, log);
  const embedder = await createEmbedder(config.embedding, llm, log);
  await configureExtractionThreads({ size: Math.max(1, config.workerConcurrency) });
  if (!config.databaseUrl) {
    const resumed = await releaseClaimsOfPreviousRun(database.db, {
      questions: MAX_QUESTION_ATTEMPTS,
      documents: MAX_DOCUMENT_ATTEMPTS,
    });
    if (resumed > 0) log.info({ questions: resumed }, 'resuming assessment questions a previous run had claimed');
  }
  // The background worker runs here too unless WORKER_CONCURRENCY=0 (then `npm run worker` does the work).
  const worker: Worker | null =
    config.workerConcurrency > 0
      ? startWorker({
          db: database.db,
          storage,
          log,
          extract: extractDocumentInThread,
          concurrency: config.workerConcurrency,
          staleMs: config.documentClaimMs,
          questionStaleMs: config.questionClaimMs,
          // Answering is CPU work on this process's one thread, and the embedded database runs on that thread
          // too: a second lane there only contends (bench:assessment). On PostgreSQL queries run elsewhere.
          questionConcurrency: config.databaseUrl ? config.workerConcurrency : 1,
          llm,
          embedder,
        })
      : null;
  const app = await buildApp(
    { db: database.db, config, mailer, log, storage, wakeWorker: worker?.wake, llm, embedder },
    { loggerInstance: log },
  );
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal}: shutting down`);
    await app.close().catch(() => {});
    await worker?.stop().catch(() => {});
    await embedder?.close().catch(() => {});
    await closeExtractionThreads().catch(() => {});
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  log.info(
    `Verity is ready on ${config.publicUrl} (database: ${database.kind === 'pglite' ? `embedded in ${config.dataDir}` : 'PostgreSQL'})`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
