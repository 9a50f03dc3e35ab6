// `npm run db:check`: fails when server/db/schema.ts differs from what the migrations in server/db/migrations
// produce, i.e. when someone changed the schema and forgot `npm run db:generate`. drizzle-kit generates into a
// temporary copy of the migrations folder, so the repository is never written; it needs no database (offline).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const migrations = path.join(root, 'server/db/migrations');
// The package exports no path to its command line, so it is taken from where npm installs it.
const drizzleKit = path.join(root, 'node_modules/drizzle-kit/bin.cjs');

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-db-check-'));
try {
  process.exitCode = check(path.join(scratch, 'migrations'));
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}

/** 0 when generating into `copy` (a copy of the migrations) writes nothing, 1 otherwise (with the reason on stderr). */
function check(copy) {
  fs.cpSync(migrations, copy, { recursive: true });
  const run = spawnSync(
    process.execPath,
    // drizzle-kit prefixes `--out` with "./", so an absolute path would not resolve: give it one relative to root.
    [
      drizzleKit,
      'generate',
      '--dialect',
      'postgresql',
      '--schema',
      './server/db/schema.ts',
      '--out',
      path.relative(root, copy),
    ],
    // No stdin: a question drizzle-kit would ask (a rename?) fails the check instead of waiting for an answer.
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 },
  );
  const written = changedFiles(migrations, copy);
  if (written.length > 0) {
    console.error('server/db/schema.ts differs from the migrations: `npm run db:generate` would write');
    // The SQL says what changed; the snapshot and journal beside it are drizzle-kit's bookkeeping.
    for (const file of written) {
      console.error(
        file.endsWith('.sql') ? `\n--- ${file}\n${fs.readFileSync(path.join(copy, file), 'utf8')}` : `--- ${file}`,
      );
    }
    return 1;
  }
  // drizzle-kit exits 0 even when it fails (a schema that does not load), so its verdict is read from its output.
  if (run.status !== 0 || !/No schema changes/.test(run.stdout)) {
    console.error(`drizzle-kit generate did not confirm the migrations are current:\n${run.stdout}\n${run.stderr}`);
    if (run.error) console.error(run.error.message);
    return 1;
  }
  console.log('server/db/schema.ts matches the migrations.');
  return 0;
}

/** Files in `copy` that are new or differ from `original` (relative paths). */
function changedFiles(original, copy) {
  return fs
    .readdirSync(copy, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(copy, path.join(entry.parentPath, entry.name)))
    .filter((file) => {
      const before = path.join(original, file);
      return !fs.existsSync(before) || !fs.readFileSync(before).equals(fs.readFileSync(path.join(copy, file)));
    });
}
