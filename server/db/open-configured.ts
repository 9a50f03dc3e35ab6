import type { Logger } from 'pino';
import type { Config } from '../config';
import { openDatabase, type Database } from './client';
import { DataDirLockedError } from './data-dir-lock';

/**
 * The database the configuration names: PostgreSQL with DATABASE_URL, else the embedded one in DATA_DIR. When
 * another process holds DATA_DIR, the process exits with that sentence in plain text (not a JSON log line): it is
 * the one message the person starting the command must read.
 */
export async function openConfiguredDatabase(config: Config, log?: Pick<Logger, 'warn'>): Promise<Database> {
  return openDatabase(
    config.databaseUrl
      ? {
          kind: 'postgres',
          url: config.databaseUrl,
          onConnectionLost: (err) =>
            log?.warn({ err }, 'PostgreSQL ended an idle connection; the next query opens a new one'),
        }
      : { kind: 'pglite', dataDir: config.dataDir },
  ).catch((err: unknown) => {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  });
}
