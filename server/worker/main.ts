import os from 'node:os';
import { loadConfig } from '../config';
import { openRuntime } from '../runtime';

/**
 * `npm run worker`: the background worker alone, for deployments that scale API and worker processes separately
 * on one PostgreSQL (DATABASE_URL). The embedded database belongs to one process, so it needs DATABASE_URL.
 */
async function main() {
  const config = loadConfig();
  // A worker process runs batch work (extraction, assessments): on a machine it shares with API processes, a
  // person waiting for an answer comes first. Raising one's own niceness needs no privilege.
  try {
    os.setPriority(config.workerNice);
  } catch {
    // Some containers refuse any change of priority; the worker still runs.
  }
  if (!config.databaseUrl) {
    console.error(
      'npm run worker needs DATABASE_URL: the embedded database is used by `npm start`, which already runs a worker.',
    );
    process.exit(1);
  }
  const runtime = await openRuntime(config, { role: 'worker' });
  runtime.log.info(`Verity worker started (concurrency ${Math.max(1, config.workerConcurrency)})`);
  const shutdown = async () => {
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
