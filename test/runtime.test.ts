import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../server/config';
import { openRuntime } from '../server/runtime';
import { openTestDatabase } from './helpers/app';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-runtime-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const configWithoutSecret = () =>
  loadConfig({ DATA_DIR: dataDir, STORAGE_DIR: inject('objectsDir'), EMBEDDING_PROVIDER: 'none' });
const open = async (config = configWithoutSecret()) =>
  openRuntime(config, {
    role: 'embedded',
    log: pino({ level: 'silent' }),
    database: await openTestDatabase(),
    worker: false,
  });

describe('the runtime (server/runtime.ts)', () => {
  it('without SESSION_SECRET, resolves one secret kept in DATA_DIR and the same one on the next start', async () => {
    const parsed = configWithoutSecret();
    expect(parsed.sessionSecret).toBeUndefined();
    const first = await open(parsed);
    const second = await open();
    try {
      // Resolved into the runtime's own configuration: the parsed one is never patched.
      expect(parsed.sessionSecret).toBeUndefined();
      const kept = fs.readFileSync(path.join(dataDir, 'secret'), 'utf8').trim();
      expect(kept.length).toBeGreaterThanOrEqual(32);
      expect(first.config.sessionSecret).toBe(kept);
      expect(second.config.sessionSecret).toBe(kept);
      // The app is built from the resolved configuration, not a copy still waiting for its secret.
      expect(first.deps.config.sessionSecret).toBe(kept);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('runs no worker when asked not to, and nothing wakes one', async () => {
    const runtime = await open();
    try {
      expect(runtime.worker).toBeNull();
      expect(runtime.deps.wakeWorker).toBeUndefined();
    } finally {
      await runtime.close();
    }
  });
});
