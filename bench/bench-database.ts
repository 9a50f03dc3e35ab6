import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';

/**
 * A fresh data folder, its database (DATABASE_URL's PostgreSQL when set, else embedded PGlite in the folder) and
 * the config the in-process benchmarks run with: sign-up is not rate-limited, as a benchmark signs up at will.
 */
export async function openBenchDatabase(dirPrefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), dirPrefix));
  const url = process.env.DATABASE_URL;
  const database = await openDatabase(url ? { kind: 'postgres', url } : { kind: 'pglite', dataDir });
  const config = loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: 'bench-secret-bench-secret-bench',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
  });
  return { dataDir, database, config };
}
