import fs from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { freePort, startServer } from './helpers/processes';
import pg from 'pg';
import { createScratchDatabase } from './helpers/scratch-database';

const testDb = inject('testDb');
const onPostgres = testDb.kind === 'postgres';

describe.runIf(onPostgres)('several API processes on one PostgreSQL', () => {
  it('start together on an empty database (migrations run once) and share sessions and data', async () => {
    if (testDb.kind !== 'postgres') return;
    const scratch = await createScratchDatabase(testDb.url, 'verity_scale');
    const [p1, p2] = [await freePort(), await freePort()];
    const env = { DATABASE_URL: scratch.url, SESSION_SECRET: 'shared-secret-shared-secret' };
    const a = startServer({ ...env, PORT: String(p1) });
    const b = startServer({ ...env, PORT: String(p2) });
    try {
      expect(await a.ready, a.output()).toBe('ready');
      expect(await b.ready, b.output()).toBe('ready');
      const json = { 'content-type': 'application/json' };
      const reg = await fetch(`http://127.0.0.1:${p1}/api/auth/register`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          username: 'scaleout',
          email: 'scale@example.com',
          password: 'secret-1234',
          organizationName: 'Scale',
        }),
      });
      expect(reg.status).toBe(201);
      const cookie = (reg.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const me = await fetch(`http://127.0.0.1:${p2}/api/auth/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { user: { username: string } }).user.username).toBe('scaleout');
      const migrations = new pg.Client({ connectionString: scratch.url });
      await migrations.connect();
      const rows = await migrations.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
      await migrations.end();
      // Each migration applied exactly once, though both processes started on the empty database together.
      const journal = JSON.parse(fs.readFileSync('server/db/migrations/meta/_journal.json', 'utf8')) as {
        entries: unknown[];
      };
      expect(rows.rows[0].n).toBe(journal.entries.length);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await scratch.drop();
    }
  }, 60_000);
});
