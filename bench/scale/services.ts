import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import S3rver from 's3rver';
import { ROOT, freePort, onCleanup, spawnTsx, waitUntil, type Child } from './children';
import { createScratchDatabase } from '../../test/helpers/scratch-database';
import type { LimitEnv } from '../limits';

/** Every file the bench writes (child logs, the S3 store, data directories) goes under one temp directory. */
export const WORK_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-bench-scale-'));

/**
 * A fresh database on `DATABASE_URL`'s server, or on a private cluster started with scripts/pg-test-cluster.sh
 * (stopped and deleted at the end). Returns the fresh database's URL.
 */
export async function startPostgres(): Promise<{ url: string; where: string; dataDir: string | null }> {
  let serverUrl = process.env.DATABASE_URL;
  let where = 'the DATABASE_URL server';
  let dataDir: string | null = null;
  if (!serverUrl) {
    const script = path.join(ROOT, 'scripts/pg-test-cluster.sh');
    const out = execFileSync('bash', [script, 'start'], { encoding: 'utf8' });
    const dir = /VERITY_PG_DIR='([^']+)'/.exec(out)?.[1];
    serverUrl = /TEST_DATABASE_URL='([^']+)'/.exec(out)?.[1];
    if (!dir || !serverUrl) throw new Error(`pg-test-cluster.sh printed no cluster:\n${out}`);
    const stop = () => {
      execFileSync('bash', [script, 'stop', dir], { stdio: 'ignore' });
    };
    onCleanup({ name: 'PostgreSQL cluster', run: async () => stop(), runSync: stop });
    where = 'a private cluster (scripts/pg-test-cluster.sh)';
    dataDir = path.join(dir, 'data');
  }
  const server = serverUrl;
  const scratch = await createScratchDatabase(server, 'verity_bench_scale');
  onCleanup({ name: `database ${scratch.name}`, run: scratch.drop });
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  const setting = async (key: string) =>
    (await admin.query<Record<string, string>>(`SHOW ${key}`).catch(() => null))?.rows[0]?.[key] ?? null;
  const version = (await setting('server_version'))?.split(' ')[0] ?? '?';
  where = `${where}, PostgreSQL ${version}, fsync ${(await setting('fsync')) ?? '?'}`;
  // A DATABASE_URL server on this machine: its CPU time can be read too (data_directory needs a superuser).
  const serverDir = dataDir ? null : await setting('data_directory');
  if (serverDir && ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(server).hostname)) {
    if (fs.existsSync(path.join(serverDir, 'postmaster.pid'))) dataDir = serverDir;
  }
  await admin.end();
  return { url: scratch.url, where, dataDir };
}

export type S3 = { endpoint: string; bucket: string };

/** s3rver (a real S3-compatible server, in this process) on a temp directory, with one bucket. */
export async function startS3(): Promise<S3> {
  const dir = path.join(WORK_DIR, 's3');
  fs.mkdirSync(dir);
  const port = await freePort();
  const bucket = 'verity-bench';
  const server = new S3rver({
    port,
    address: '127.0.0.1',
    directory: dir,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  onCleanup({ name: 's3rver', run: () => server.close() });
  return { endpoint: `http://127.0.0.1:${port}`, bucket };
}

/** The environment every API and worker process shares: one database, one S3 bucket, one session secret, no LLM. */
export function sharedEnv(databaseUrl: string, s3: S3): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: 'bench-scale-secret-bench-scale-secret',
    DATA_DIR: path.join(WORK_DIR, 'data'),
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: '1',
    // Measured without a model, like bench:assessment: an inherited LLM_BASE_URL would time the model instead.
    LLM_BASE_URL: '',
    LLM_API_KEY: '',
    EMBEDDING_MODEL: '',
  };
}

export type Api = Child & { base: string };

/** Every API process's own limits: all simulated users sign up from 127.0.0.1, so the per-IP sign-up limit is raised. */
export const API_LIMITS: LimitEnv = { AUTH_RATE_LIMIT_PER_MINUTE: '1000' };

/** An API-only process (`server/main.ts` with WORKER_CONCURRENCY=0, API_LIMITS), ready once `/api/health` answers. */
export async function startApi(index: number, env: Record<string, string>): Promise<Api> {
  const port = await freePort();
  const child = spawnTsx(
    `api-${index}`,
    'server/main.ts',
    {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      WORKER_CONCURRENCY: '0',
      ...API_LIMITS,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    },
    path.join(WORK_DIR, `api-${index}.log`),
  );
  const base = `http://127.0.0.1:${port}`;
  await waitUntil(child, 'health answer', async () => (await fetch(`${base}/api/health`)).ok);
  return { ...child, base };
}

/** A `npm run worker` process (server/worker/main.ts), ready once it logs that it started. */
export async function startWorker(index: number, env: Record<string, string>, concurrency: number): Promise<Child> {
  const logFile = path.join(WORK_DIR, `worker-${index}.log`);
  // A restarted worker appends to its log: only a line written after this start counts.
  const from = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
  const child = spawnTsx(
    `worker-${index}`,
    'server/worker/main.ts',
    { ...env, WORKER_CONCURRENCY: String(concurrency), LOG_LEVEL: 'info' },
    logFile,
  );
  await waitUntil(child, 'start', async () => child.log().slice(from).includes('worker started'));
  return child;
}
