// Builds the web app into dist/web when its sources changed since the last build (always on a fresh clone).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stampFile = path.join(root, 'dist/web/.build-hash');

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(p) : [p];
  });
}

/** A hash over everything the web build reads: while it is unchanged, the previous build is still right. */
function sourceHash() {
  const inputs = [
    ...listFiles(path.join(root, 'web')),
    ...listFiles(path.join(root, 'common')),
    path.join(root, 'vite.config.ts'),
    path.join(root, 'package-lock.json'),
  ].sort();
  const h = createHash('sha256');
  for (const f of inputs) {
    if (!fs.existsSync(f)) continue;
    h.update(path.relative(root, f));
    h.update(fs.readFileSync(f));
  }
  return h.digest('hex');
}

export function ensureWebBuilt({ force = false } = {}) {
  const hash = sourceHash();
  const built = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : '';
  if (!force && built === hash && fs.existsSync(path.join(root, 'dist/web/index.html'))) return false;
  console.log(force ? 'Building the web app...' : 'Building the web app (its sources changed since the last build)...');
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  fs.writeFileSync(stampFile, hash);
  return true;
}

// `node scripts/ensure-web-built.mjs [--force]`: the web app alone. scripts/build.mjs builds it with the server.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  ensureWebBuilt({ force: process.argv.includes('--force') });
}
