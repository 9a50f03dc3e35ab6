import os from 'node:os';
import pino from 'pino';
import { setEngineLanes } from '../engine/fair-lanes';
import { logOptions } from '../http/log-options';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { createStorage } from '../storage/create';
import { loadOrCreateSecret } from '../secret';
import { closeExtractionThreads, configureExtractionThreads, extractInThread } from '../ingest/thread';
import { startWorker } from './worker';
import { createLlmClient } from '../llm/client';
import { createEmbedder } from '../embedding/embedder';

/**
 * `npm run worker`: the background worker alone, for deployments that scale API and worker processes separately
 * on one PostgreSQL (DATABASE_URL). The embedded database belongs to one process, so it needs DATABASE_URL.
 */
// The worker never reuses a file's bytes after extraction, so they move to the thread instead of being copied.
const extractDocumentInThread = (bytes: Uint8Array, name: string) => extractInThread(bytes, name, { transfer: true });

async function main() {
  const config = loadConfig();
  // On PostgreSQL every query gives other requests their turn; the embedded database's queries do not.
  setEngineLanes(config.qa.engineLanes, { yieldAlways: !config.databaseUrl });
  // A worker process runs batch work (extraction, assessments): on a machine it shares with API processes, a
  // person waiting for an answer comes first. Raising one's own niceness needs no privilege.
  try {
    os.setPriority(config.workerNice);
  } catch {
    // Some containers refuse any change of priority; the worker still runs.
  }
  const log = pino(logOptions(config.logLevel));
  if (!config.databaseUrl) {
    console.error(
      'npm run worker needs DATABASE_URL: the embedded database is used by `npm start`, which already runs a worker.',
    );
    process.exit(1);
  }
  if (!config.sessionSecret) config.sessionSecret = loadOrCreateSecret(config.dataDir);
  const database = await openDatabase({ kind: 'postgres', url: config.databaseUrl });
  const storage = createStorage(config);
  await configureExtractionThreads({ size: Math.max(1, config.workerConcurrency) });
  const llm = createLlmClient(config.llm, log);
  const embedder = await createEmbedder(config.embedding, llm, log);
  const worker = startWorker({
    db: database.db,
    storage,
    log,
    extract: extractDocumentInThread,
    concurrency: Math.max(1, config.workerConcurrency),
    staleMs: config.documentClaimMs,
    questionStaleMs: config.questionClaimMs,
    llm,
    embedder,
  });
  log.info(`Verity worker started (concurrency ${Math.max(1, config.workerConcurrency)})`);
  const shutdown = async () => {
    await worker.stop();
    await embedder?.close();
    await closeExtractionThreads();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
