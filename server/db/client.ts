import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';
import { lockDataDir } from './data-dir-lock';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** What a service receives: the database or an open transaction on it. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
};

/** drizzle-kit's migrations: beside this file in the sources, copied beside the bundle in dist/server (build.mjs). */
export const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Arbitrary constant: serialises migrations when several processes start on one PostgreSQL at once. */
const MIGRATION_LOCK_ID = 727_431_001;

export type OpenOptions =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** The server ended an idle pooled connection (a restart, a failover, an administrator, idle_session_timeout). */
      onConnectionLost?: (err: Error) => void;
    }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

/** Opens the database and applies pending migrations before anything else touches it. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  return opts.kind === 'postgres'
    ? openPostgres(opts.url, opts.poolSize, opts.onConnectionLost)
    : openPglite(opts.dataDir, opts.loadDataDir);
}

async function openPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<Database> {
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    const client = await PGlite.create(dataDir ? path.join(dataDir, 'pg') : 'memory://', {
      extensions: { pg_trgm },
      loadDataDir,
      // Bulk loads otherwise grow pg_wal to several times the database (STACK-NOTES.md). The buffer pool lives in
      // the WebAssembly memory, which never shrinks: 32 MB instead of 128 MB saved ~110 MB of RSS on a 10,000-entry,
      // 100,000-chunk workspace at the same query times (bench/README.md, bench:ask).
      postgresqlconf: ['max_wal_size=64MB', 'min_wal_size=32MB', 'shared_buffers=32MB'],
    });
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS });
    return {
      db,
      kind: 'pglite',
      async close() {
        try {
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

async function openPostgres(url: string, poolSize = 10, onConnectionLost?: (err: Error) => void): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // The pool has already dropped the connection and opens a new one for the next query; without a listener its
  // 'error' event would be thrown and end the process.
  pool.on('error', (err) => onConnectionLost?.(err));
  const conn = await pool.connect();
  try {
    await conn.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migratePg(drizzlePg(conn), { migrationsFolder: MIGRATIONS });
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    conn.release();
  }
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return { db, kind: 'postgres', close: () => pool.end() };
}

/**
 * Runs fn in a transaction (a savepoint when db already is one). The cast is sound: a transaction is a
 * PgDatabase too; TypeScript just cannot call `transaction` on the union of the two.
 */
export function inTransaction<T>(db: DbOrTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return (db as Db).transaction(fn);
}
