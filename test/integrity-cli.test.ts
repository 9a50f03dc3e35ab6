import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { createAnswer, createOrg } from './helpers/factories';
import { documents, organizations, workspaces } from '../server/db/schema';
import { openDatabase } from '../server/db/client';
import { newUploadKey } from '../server/storage/keys';
import { DEFAULT_BRAND_PROFILE } from '../server/modules/organizations/create';

const testDb = inject('testDb');
const privateDb = testDb.kind === 'pglite';
const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ worker: false });
});
afterAll(() => app.close());

/** `npm run integrity` as a child process; resolves with its exit code and output. */
function runCli(env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/ops/integrity-cli.ts', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, output })),
  );
}

describe('npm run integrity', () => {
  it.runIf(privateDb)(
    'on the embedded database: refuses a directory without one and while another process holds it, then reports',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-integrity-'));
      try {
        const none = await runCli({ DATA_DIR: dataDir });
        expect(none).toEqual({
          code: 1,
          output: expect.stringContaining(`There is no Verity database in ${dataDir}.`),
        });
        // The migrated template, not a new database: initdb alone costs seconds.
        const template = testDb.kind === 'pglite' ? new Blob([fs.readFileSync(testDb.templateFile)]) : undefined;
        const database = await openDatabase({ kind: 'pglite', dataDir, loadDataDir: template });
        let organizationId = '';
        let workspaceId = '';
        try {
          const locked = await runCli({ DATA_DIR: dataDir });
          expect(locked.code).toBe(1);
          expect(locked.output).toContain(`is already using the embedded database in ${dataDir}`);
          const [org] = await database.db
            .insert(organizations)
            .values({ name: 'Cli', slug: `cli-${crypto.randomUUID()}`, brandProfile: DEFAULT_BRAND_PROFILE })
            .returning();
          const [ws] = await database.db
            .insert(workspaces)
            .values({ organizationId: org?.id ?? '', name: 'Default' })
            .returning();
          organizationId = org?.id ?? '';
          workspaceId = ws?.id ?? '';
        } finally {
          await database.close();
        }
        expect(await runCli({ DATA_DIR: dataDir }, ['--quiescent'])).toEqual({ code: 0, output: 'integrity: ok\n' });

        const again = await openDatabase({ kind: 'pglite', dataDir });
        try {
          await again.db.insert(documents).values({
            organizationId,
            workspaceId,
            storageKey: newUploadKey(organizationId),
            originalName: 'p.txt',
            mimeType: 'text/plain',
            kind: 'text',
            size: 5,
            status: 'processing',
            claimedAt: secondsAgo(3600),
          });
        } finally {
          await again.close();
        }
        const damaged = await runCli({ DATA_DIR: dataDir });
        expect(damaged.output).toMatch(/^integrity: 2 problems found/);
        expect(damaged.output).toContain('[document_stuck] 1 document is stuck in processing');
        expect(damaged.output).toContain('[missing_object]');
        expect(damaged.code).toBe(1);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    90_000,
  );

  it.runIf(testDb.kind === 'postgres')(
    'on PostgreSQL: "integrity: ok" and exit 0 for a sound organization',
    async () => {
      if (testDb.kind !== 'postgres') return;
      const org = await createOrg(app);
      await createAnswer(app, org.admin);
      const env = { DATABASE_URL: testDb.url, STORAGE_DIR: inject('objectsDir') };
      const res = await runCli(env, ['--organization', org.organizationId]);
      expect(res).toEqual({ code: 0, output: 'integrity: ok\n' });
    },
    60_000,
  );

  it('refuses an argument it does not know, saying how to call it', async () => {
    const bad = await runCli({}, ['--organization', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('--organization needs an organization id.');
    expect(bad.output).toContain('usage: npm run integrity');
  });
});
