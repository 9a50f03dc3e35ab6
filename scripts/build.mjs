// `npm run build`: compiles the server to plain JavaScript in dist/server (esbuild) and builds the web app into
// dist/web (vite). `npm start` and the other production scripts call ensureBuilt()/ensureServerBuilt(), which build
// only what is missing or stale, so a fresh clone or a `git pull` never runs old code.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureWebBuilt } from './ensure-web-built.mjs';

const root = path.resolve(import.meta.dirname, '..');
export const SERVER_DIST = path.join(root, 'dist/server');
const INFO_FILE = 'build.json';
// Bumped when the layout of dist/server changes, so a build made by an older build script counts as stale.
const LAYOUT = 1;

/**
 * The compiled entry points, written side by side at the top of the output folder (with their shared chunks): the
 * code finds its worker threads' entries (`./extract-thread.js`, see server/thread-entry.ts) and the migrations
 * folder beside the file it runs from, whichever entry that is.
 */
export const SERVER_ENTRIES = {
  main: 'server/main.ts',
  worker: 'server/worker/main.ts',
  'extract-thread': 'server/ingest/thread-worker.ts',
  'embed-thread': 'server/embedding/embed-thread-worker.ts',
  'ensure-model': 'server/embedding/ensure-on-start.ts',
  'backup-cli': 'server/ops/backup-cli.ts',
  'integrity-cli': 'server/ops/integrity-cli.ts',
  'models-cli': 'server/embedding/setup-cli.ts',
};

/** Data read at run time relative to the code (not imported, so not bundled): copied into the output. */
const COPIED = [{ from: 'server/db/migrations', to: 'migrations' }];

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(p) : [p];
  });
}

/**
 * A hash over everything the server build reads. Content rather than modification times: a checkout or a copy
 * changes times without changing code, and a `git checkout` of an older commit can make old code look newer.
 */
export function serverSourceHash() {
  const inputs = [
    ...listFiles(path.join(root, 'server')).filter((f) => !/\.test\.ts$/.test(f)),
    ...listFiles(path.join(root, 'common')).filter((f) => !/\.test\.ts$/.test(f)),
    ...['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.base.json', 'scripts/build.mjs'].map((f) =>
      path.join(root, f),
    ),
  ].sort();
  const h = createHash('sha256');
  h.update(`layout ${LAYOUT}\n`);
  for (const f of inputs) {
    if (!fs.existsSync(f)) continue;
    h.update(`${path.relative(root, f)}\n`);
    h.update(fs.readFileSync(f));
  }
  return h.digest('hex');
}

/** What dist/server/build.json says about the build in that folder, or null when there is none (or it is unreadable). */
export function readBuildInfo(outDir = SERVER_DIST) {
  try {
    return JSON.parse(fs.readFileSync(path.join(outDir, INFO_FILE), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Why the build must be made again, or null when it is up to date. Pure: `info` is what build.json says (null when
 * absent), `hash` the sources' hash now, `missing` the entry files absent from the output folder.
 */
export function staleReason(info, { hash, missing = [] }) {
  if (!info) return 'there is no build yet';
  if (info.layout !== LAYOUT) return 'it was made by an older build script';
  if (missing.length > 0) return `it lacks ${missing.join(', ')}`;
  if (info.hash !== hash) return 'the sources changed since it was made';
  return null;
}

function missingEntries(outDir) {
  return Object.keys(SERVER_ENTRIES)
    .map((name) => `${name}.js`)
    .filter((file) => !fs.existsSync(path.join(outDir, file)));
}

/** Compiles the server into `outDir` (replaced as a whole at the end). Returns the time it took in ms. */
export async function buildServer({ outDir = SERVER_DIST, hash = serverSourceHash() } = {}) {
  const started = Date.now();
  // Imported here: only building needs esbuild, and `npm start` with a fresh build never loads it.
  const esbuild = await import('esbuild');
  const parent = path.dirname(outDir);
  fs.mkdirSync(parent, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(parent, `.${path.basename(outDir)}-building-`));
  // mkdtemp makes a private folder; the build is read by whichever user runs the server.
  fs.chmodSync(tmp, 0o755);
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: Object.fromEntries(Object.entries(SERVER_ENTRIES).map(([out, src]) => [out, src])),
      outdir: tmp,
      bundle: true,
      // Code the entries share (almost all of it) is written once, in chunks beside them (not in a sub-folder: the
      // code's paths relative to `import.meta.url` must mean the same folder in a chunk as in an entry).
      splitting: true,
      format: 'esm',
      platform: 'node',
      // The lowest Node that runs it (20 still runs development on these machines); syntax newer than that is lowered.
      target: 'node20',
      // node_modules are loaded by Node at run time, as when running the sources: no second copy, native modules work.
      packages: 'external',
      sourcemap: 'linked',
      logLevel: 'warning',
    });
    for (const { from, to } of COPIED) fs.cpSync(path.join(root, from), path.join(tmp, to), { recursive: true });
    const info = { layout: LAYOUT, hash, builtAt: new Date().toISOString(), node: process.version };
    fs.writeFileSync(path.join(tmp, INFO_FILE), `${JSON.stringify(info, null, 2)}\n`);
    replaceDir(tmp, outDir);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  return Date.now() - started;
}

/**
 * Puts the finished build in place. Two renames, so a process starting meanwhile sees the old build or the new one
 * whole, never a folder half written (tests run `npm run backup` from several processes at once).
 */
function replaceDir(fresh, outDir) {
  const old = `${fresh}-old`;
  if (fs.existsSync(outDir)) fs.renameSync(outDir, old);
  fs.renameSync(fresh, outDir);
  fs.rmSync(old, { recursive: true, force: true });
}

/**
 * Builds the server when the build is missing or stale; returns whether it built. Several processes may ask at once
 * (parallel tests): one builds while the others wait for it, then find the build up to date. `log` gets its two
 * lines (what is built and why, how long it took).
 */
export async function ensureServerBuilt({ outDir = SERVER_DIST, force = false, log = console.log } = {}) {
  const check = () => {
    const hash = serverSourceHash();
    return {
      hash,
      reason: force
        ? 'a build was asked for'
        : staleReason(readBuildInfo(outDir), { hash, missing: missingEntries(outDir) }),
    };
  };
  if (!check().reason) return false;
  const release = await lock(`${outDir}.lock`);
  try {
    // Another process may have made the build while this one waited for the lock.
    const { hash, reason } = check();
    if (!reason) return false;
    log(`Compiling the server (${reason})...`);
    const ms = await buildServer({ outDir, hash });
    log(`Compiled the server into ${path.relative(root, outDir)} in ${(ms / 1000).toFixed(1)} s.`);
    return true;
  } finally {
    release();
  }
}

/** `npm start`: the server and the web app, each built only when missing or stale. */
export async function ensureBuilt({ force = false } = {}) {
  await ensureServerBuilt({ force });
  ensureWebBuilt({ force });
}

/**
 * A lock between processes: a folder, whose creation is atomic. A lock left by a process that died (its pid is gone)
 * or older than ten minutes (a build takes seconds) is taken over.
 */
async function lock(dir) {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
      return () => fs.rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    if (lockAbandoned(dir)) {
      fs.rmSync(dir, { recursive: true, force: true });
      continue;
    }
    await sleep(100);
  }
}

function lockAbandoned(dir) {
  try {
    if (Date.now() - fs.statSync(dir).mtimeMs > 10 * 60_000) return true;
    const pid = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
    if (!pid) return false; // being written
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // ESRCH: no such process. ENOENT: the lock went away meanwhile (the next mkdir tells).
    return err.code === 'ESRCH';
  }
}

// `npm run build` builds both, always; `--if-stale` (the e2e set-up) only what is missing or stale.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await ensureBuilt({ force: !process.argv.includes('--if-stale') });
}
