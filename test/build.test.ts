import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildServer,
  ensureServerBuilt,
  readBuildInfo,
  SERVER_ENTRIES,
  serverSourceHash,
  staleReason,
  type BuildInfo,
} from '../scripts/build.mjs';
import type { EmbedReply, EmbedRequest } from '../server/embedding/embed-thread';
import { makePdf } from './fixtures/ingest/make-documents';
import { settledDocument, uploadDocument } from './helpers/documents';
import { createOrg } from './helpers/factories';
import { freePort, startServer } from './helpers/processes';
import { remoteApp } from './helpers/remote-app';
import { writeTinyModel } from './helpers/tiny-model';

/** What `npm start` runs: the server compiled by scripts/build.mjs, on plain Node with no TypeScript loader. */

const info = (over: Partial<BuildInfo> = {}): BuildInfo => ({
  layout: 1,
  hash: 'abc',
  builtAt: '2026-11-26T00:00:00.000Z',
  node: 'v22.12.0',
  ...over,
});

describe('when npm start compiles the server again (staleReason)', () => {
  it('builds when there is no build, or one made by an older build script', () => {
    expect(staleReason(null, { hash: 'abc' })).toBe('there is no build yet');
    expect(staleReason(info({ layout: 0 }), { hash: 'abc' })).toBe('it was made by an older build script');
  });

  it('builds when an entry is missing from the build, or the sources changed', () => {
    expect(staleReason(info(), { hash: 'abc', missing: ['main.js'] })).toBe('it lacks main.js');
    expect(staleReason(info(), { hash: 'def' })).toBe('the sources changed since it was made');
  });

  it('runs the build as it is when its sources are the ones it was made from', () => {
    expect(staleReason(info(), { hash: 'abc', missing: [] })).toBeNull();
    // Which Node made it does not matter: the output runs on every supported version.
    expect(staleReason(info({ node: 'v24.1.0' }), { hash: 'abc' })).toBeNull();
  });
});

// Inside the repository (dist/ is ignored by git): the compiled code finds node_modules by walking up, as in dist/server.
fs.mkdirSync(path.join(process.cwd(), 'dist'), { recursive: true });
const outDir = fs.mkdtempSync(path.join(process.cwd(), 'dist', '.build-test-'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-build-'));
afterAll(() => {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the compiled server', { timeout: 120_000 }, () => {
  beforeAll(() => buildServer({ outDir }), 120_000);

  it('is every entry as JavaScript with its source map, the migrations beside them, and what it was built from', () => {
    for (const name of Object.keys(SERVER_ENTRIES)) {
      expect(fs.existsSync(path.join(outDir, `${name}.js`)), name).toBe(true);
      expect(fs.existsSync(path.join(outDir, `${name}.js.map`)), name).toBe(true);
    }
    expect(fs.existsSync(path.join(outDir, 'migrations/meta/_journal.json'))).toBe(true);
    expect(readBuildInfo(outDir)).toMatchObject({ layout: 1, hash: serverSourceHash(), node: process.version });
  });

  it('is built again only when stale, once when several processes ask at the same time', async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    expect(await ensureServerBuilt({ outDir, log })).toBe(false);
    expect(lines).toEqual([]);

    const file = path.join(outDir, 'build.json');
    fs.writeFileSync(file, JSON.stringify({ ...readBuildInfo(outDir), hash: 'older sources' }));
    const built = await Promise.all([ensureServerBuilt({ outDir, log }), ensureServerBuilt({ outDir, log })]);
    expect(built.sort()).toEqual([false, true]);
    expect(lines[0]).toBe('Compiling the server (the sources changed since it was made)...');
    expect(readBuildInfo(outDir)?.hash).toBe(serverSourceHash());
    expect(fs.existsSync(`${outDir}.lock`)).toBe(false);
  });

  it('serves the API and extracts an uploaded document in its compiled extraction thread', async () => {
    const port = await freePort();
    const server = startServer(
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        STORAGE_DRIVER: 'local',
        STORAGE_DIR: '',
        LLM_BASE_URL: '',
        EMBEDDING_PROVIDER: 'none',
      },
      ['--enable-source-maps', path.join(outDir, 'main.js')],
    );
    try {
      expect(await server.ready, server.output()).toBe('ready');
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);

      const app = remoteApp(`http://127.0.0.1:${port}`);
      const { admin } = await createOrg(app);
      const upload = await uploadDocument(app, admin, await makePdf(2), 'policy.pdf');
      expect(upload.statusCode, upload.body).toBe(201);
      const doc = await settledDocument(app, admin, upload.data.id);
      expect(doc, server.output()).toMatchObject({ status: 'ready', pageCount: 2 });
      expect(doc.extractedChunks).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  });

  it('embeds in its compiled embedding thread', async () => {
    const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-build-models-'));
    const spec = writeTinyModel(modelsDir);
    const worker = new Worker(pathToFileURL(path.join(outDir, 'embed-thread.js')), {
      workerData: { dir: path.join(modelsDir, spec.id), spec },
    });
    try {
      const reply = new Promise<EmbedReply>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      const request: EmbedRequest = { id: 1, texts: ['backup retention?'], kind: 'query' };
      worker.postMessage(request);
      const answer = await reply;
      expect(answer).toMatchObject({ id: 1, ok: true });
      expect(answer.ok && answer.vectors.length).toBe(spec.dimension);
    } finally {
      await worker.terminate();
      fs.rmSync(modelsDir, { recursive: true, force: true });
    }
  });
});
