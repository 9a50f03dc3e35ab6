import { describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { freePort, startServer } from './helpers/processes';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../server/db/client';
import { DataDirLockedError } from '../server/db/data-dir-lock';
import { organizations } from '../server/db/schema';
import { waitUntil } from './helpers/wait';

const testDb = inject('testDb');
const embedded = testDb.kind === 'pglite';

describe.runIf(embedded)('embedded database directory', () => {
  it('keeps all data across a restart on the same DATA_DIR', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-persist-'));
    try {
      const first = await openDatabase({ kind: 'pglite', dataDir: dir });
      const [org] = await first.db
        .insert(organizations)
        .values({
          name: 'Persisted',
          slug: 'persisted',
          brandProfile: { tone: 'concise', languageRules: '', boilerplate: '', disclaimers: '', bannedTokens: [] },
        })
        .returning();
      await first.close();
      const second = await openDatabase({ kind: 'pglite', dataDir: dir });
      const rows = await second.db.select().from(organizations).where(eq(organizations.id, org!.id));
      await second.close();
      expect(rows[0]?.name).toBe('Persisted');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a second opener of the same directory, and frees it on close', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-lock-'));
    try {
      const first = await openDatabase({ kind: 'pglite', dataDir: dir });
      await expect(openDatabase({ kind: 'pglite', dataDir: dir })).rejects.toBeInstanceOf(DataDirLockedError);
      await first.close();
      const again = await openDatabase({ kind: 'pglite', dataDir: dir });
      await again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes over the lock of a process that died without releasing it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-stale-'));
    try {
      // A pid far above the kernel's default pid_max cannot be a live process.
      fs.writeFileSync(path.join(dir, 'verity.lock'), '99999999');
      const db = await openDatabase({ kind: 'pglite', dataDir: dir });
      await db.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a second server on the same DATA_DIR exits with a clear message while the first keeps serving', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-two-'));
    const [p1, p2] = [await freePort(), await freePort()];
    const first = startServer({ DATA_DIR: dir, PORT: String(p1) });
    try {
      expect(await first.ready, first.output()).toBe('ready');
      const second = startServer({ DATA_DIR: dir, PORT: String(p2) });
      expect(await second.ready).toBe(1);
      expect(second.output()).toMatch(/already using the embedded database/);
      const health = await fetch(`http://127.0.0.1:${p1}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok' });
    } finally {
      await first.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.runIf(testDb.kind === 'postgres')('a PostgreSQL connection the server ends while it is idle', () => {
  it('is reported and replaced; the process goes on and the next query succeeds', async () => {
    if (testDb.kind !== 'postgres') return;
    const lost: Error[] = [];
    const database = await openDatabase({
      kind: 'postgres',
      url: testDb.url,
      poolSize: 2,
      onConnectionLost: (e) => lost.push(e),
    });
    const backendPid = async () => {
      const res = (await database.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as {
        rows: { pid: number }[];
      };
      return res.rows[0]?.pid;
    };
    try {
      const before = await backendPid();
      const admin = new pg.Client({ connectionString: testDb.url });
      await admin.connect();
      try {
        // As a restart, a failover or idle_session_timeout would.
        await admin.query('select pg_terminate_backend($1)', [before]);
      } finally {
        await admin.end();
      }
      await waitUntil(() => expect(lost.map((e) => e.message)).toEqual([expect.stringMatching(/terminat/)]));
      expect(await backendPid()).not.toBe(before);
    } finally {
      await database.close();
    }
  });
});
