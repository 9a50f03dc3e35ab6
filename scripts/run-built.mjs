// `npm run worker`, `backup`, `restore`, `integrity`, `models`: `node scripts/run-built.mjs <entry> [args...]`
// compiles the server when the build is missing or stale (not the web app: these do not serve it), then runs
// dist/server/<entry>.js in this same process, with the remaining arguments as its own.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureServerBuilt, SERVER_DIST, SERVER_ENTRIES } from './build.mjs';

const [entry, ...args] = process.argv.slice(2);
if (!entry || !(entry in SERVER_ENTRIES)) {
  console.error(`Usage: node scripts/run-built.mjs <${Object.keys(SERVER_ENTRIES).join('|')}> [arguments]`);
  process.exit(2);
}
// The CLIs' output is what an operator reads (and scripts parse): the build's own lines go to stderr.
await ensureServerBuilt({ log: (line) => console.error(line) });
process.setSourceMapsEnabled(true);
const file = path.join(SERVER_DIST, `${entry}.js`);
if (!fs.existsSync(file)) throw new Error(`${file} is missing after the build.`);
// The entry reads its arguments from process.argv as if started directly: `node dist/server/<entry>.js args...`.
process.argv = [process.argv[0], file, ...args];
await import(pathToFileURL(file).href);
