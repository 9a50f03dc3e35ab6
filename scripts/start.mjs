// `npm start`: builds the web app when its sources changed since the last build (always on a fresh clone),
// then runs the server in this same process through tsx.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { register } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..');
const stampFile = path.join(root, 'dist/web/.build-hash');

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(p) : [p];
  });
}

/** A hash over everything the web build reads: if it is unchanged, the previous build is still right. */
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

const hash = sourceHash();
const built = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : '';
if (built !== hash || !fs.existsSync(path.join(root, 'dist/web/index.html'))) {
  console.log('Building the web app (once per change of its sources)...');
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  fs.writeFileSync(stampFile, hash);
}

register();
await import('../server/main.ts');
