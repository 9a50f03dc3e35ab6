import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type ScratchDatabase = { name: string; url: string; drop(): Promise<void> };

/**
 * A new, empty database on the PostgreSQL server that `serverUrl` (the URL of any database on it) points to, for a
 * test run, a test or a benchmark that must not share rows with anything else. `drop()` removes it even while
 * connections to it remain open (a process that did not exit cleanly must not leave it behind).
 */
export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
