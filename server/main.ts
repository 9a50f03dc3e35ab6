import { loadConfig } from './config';
import { buildApp } from './app';
import { openRuntime } from './runtime';
import { warmRecentWorkspaces } from './engine/warm-up';

/** Workspaces asked in within this many days are warmed up after a start (WARM_UP_WORKSPACES of them at most). */
const WARM_UP_DAYS = 14;

/** Entry: config → runtime (database migrated, worker started) → app → listen: one process serves API and web app. */
async function main() {
  const runtime = await openRuntime(loadConfig(), { role: 'server' });
  const { config, log, database } = runtime;
  const app = await buildApp(runtime.deps, { loggerInstance: log });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal}: shutting down`);
    // Requests first, so none starts on a closing worker or database.
    await app.close().catch(() => {});
    await runtime.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  log.info(
    `Verity is ready on ${config.publicUrl} (database: ${database.kind === 'pglite' ? `embedded in ${config.dataDir}` : 'PostgreSQL'})`,
  );
  // In the background: requests are served meanwhile, each with its turn.
  void warmRecentWorkspaces(database.db, runtime.embedder, log, {
    max: config.qa.warmUpWorkspaces,
    days: WARM_UP_DAYS,
    stopping: () => closing,
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
