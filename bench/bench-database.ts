import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';

/**
 * The config the in-process benchmarks run with: the product's limits but for sign-ups and sign-ins per IP address,
 * lifted, as a benchmark signs up at will (limits.ts prints what a run is under).
 */
export function benchConfig(dataDir: string) {
  return loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: 'bench-secret-bench-secret-bench',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
  });
}

/**
 * A fresh data folder, its database (DATABASE_URL's PostgreSQL when set, else embedded PGlite in the folder) and
 * benchConfig for it.
 */
export async function openBenchDatabase(dirPrefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), dirPrefix));
  const url = process.env.DATABASE_URL;
  const database = await openDatabase(url ? { kind: 'postgres', url } : { kind: 'pglite', dataDir });
  return { dataDir, database, config: benchConfig(dataDir) };
}
