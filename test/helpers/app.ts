import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import type { Mailer } from '../../server/mail/mailer';
import { openRuntime } from '../../server/runtime';
import { createScratchDatabase } from './scratch-database';

/** `url`: the PostgreSQL database, for processes a test starts on the same rows (null on PGlite). */
export type TestDatabase = Database & { url: string | null };
export type TestApp = Awaited<ReturnType<typeof buildApp>> & { database: TestDatabase; config: Config };

/** A private PGlite loaded from the migrated template, or the shared PostgreSQL test database (`npm run test:pg`). */
export async function openTestDatabase(): Promise<TestDatabase> {
  const testDb = inject('testDb');
  return testDb.kind === 'postgres'
    ? { ...(await openDatabase({ kind: 'postgres', url: testDb.url, poolSize: 4 })), url: testDb.url }
    : {
        ...(await openDatabase({ kind: 'pglite', loadDataDir: new Blob([fs.readFileSync(testDb.templateFile)]) })),
        url: null,
      };
}

/**
 * A database no other test file sees: the file's own PGlite, or on PostgreSQL a new migrated database dropped when
 * closed. For tests whose workers must find only their own rows and leave other files' alone: on the shared
 * PostgreSQL database a worker with the real embedding model would embed every other file's entries first, and a
 * worker with a claim timeout of seconds would take over questions and documents other files' workers are still on.
 */
export async function openPrivateTestDatabase(): Promise<TestDatabase> {
  const testDb = inject('testDb');
  if (testDb.kind === 'pglite') return openTestDatabase();
  const scratch = await createScratchDatabase(testDb.url, 'verity_private');
  const database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 4 });
  return {
    ...database,
    url: scratch.url,
    close: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}

/**
 * The real app on a real database: a private PGlite loaded from the migrated template, or the shared
 * PostgreSQL test database (`npm run test:pg`). Tests isolate themselves by creating their own organizations.
 */
export async function createTestApp(
  opts: {
    env?: Record<string, string>;
    mailer?: Mailer;
    worker?: boolean;
    log?: FastifyBaseLogger;
    /** Its own database even on the shared PostgreSQL (openPrivateTestDatabase). */
    privateDatabase?: boolean;
  } = {},
): Promise<TestApp> {
  const database = opts.privateDatabase ? await openPrivateTestDatabase() : await openTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-app-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://verity.test',
    SESSION_SECRET: 'test-secret-test-secret-test-secret',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    // The questions-per-minute and requests-at-once limits are tested on their own (test/security/qa-limits).
    QA_QUESTIONS_PER_MINUTE_PER_USER: '1000000',
    QA_QUESTIONS_PER_MINUTE_PER_ORG: '1000000',
    QA_CONCURRENT_REQUESTS_PER_USER: '1000',
    QA_CONCURRENT_REQUESTS_PER_ORG: '1000',
    STORAGE_DIR: inject('objectsDir'),
    // The test identity providers listen on 127.0.0.1 (test/helpers/oidc-provider.ts), which Verity refuses to call
    // unless the operator allows it: allowed here the way an on-premises installation would allow its provider.
    SSO_ALLOWED_ISSUER_HOSTS: '127.0.0.1',
    // The lexical engine unless a test asks for the model (EMBEDDING_PROVIDER: 'local'): most tests pin behaviour
    // that does not depend on the model, and loading it per app would cost every test file.
    EMBEDDING_PROVIDER: opts.env?.EMBEDDING_MODEL ? 'openai' : 'none',
    ...opts.env,
  });
  const runtime = await openRuntime(config, {
    role: 'embedded',
    log: opts.log ?? pino({ level: 'silent' }),
    database,
    mailer: opts.mailer,
    // The real background worker, polling fast so tests wait on documents for milliseconds, not seconds.
    worker: opts.worker === false ? false : { pollMs: 100 },
  });
  const app = await buildApp(runtime.deps, opts.log ? { loggerInstance: opts.log } : {});
  app.addHook('onClose', async () => {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return Object.assign(app, { database, config: runtime.config });
}
