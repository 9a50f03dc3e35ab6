import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Config } from '../config';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock';
import { assertUploadKey } from '../storage/keys';
import { tarEnd, tarHeader, tarPadding } from './backup-archive';
import {
  FORMAT_VERSION,
  MANIFEST_NAME,
  countRows,
  databaseVersions,
  verityVersion,
  type Counts,
  type Manifest,
  type ManifestMember,
} from './backup-manifest';

/**
 * `npm run backup` / `npm run restore` for the embedded mode. A backup is taken offline: it holds DATA_DIR's lock
 * (so no server can start meanwhile and none may be running), checkpoints and closes the database, then streams the
 * database directory, the object store and the secret into one `.tar.gz` whose last member, `manifest.json`, holds
 * the SHA-256 of every other one. The database goes in as its files rather than as SQL: PGlite's own
 * `dumpDataDir()` is exactly those files but built in memory, and a SQL dump needs pg_dump (pglite-tools), which
 * Verity does not ship. The price is that a backup opens only with the same PostgreSQL major version (PGlite 0.5.x
 * is PostgreSQL 18); the manifest records both versions and restore says which one it needs. Restore is
 * backup-restore.ts; the tar format is backup-archive.ts.
 */

export type BackupErrorCode =
  | 'bad_configuration'
  | 'not_embedded'
  | 'no_database'
  | 'server_running'
  | 'output_exists'
  | 'archive_missing'
  | 'not_a_backup'
  | 'archive_damaged'
  | 'archive_truncated'
  | 'archive_incompatible'
  | 'target_not_empty'
  | 'restore_check_failed';

/** A refusal or failure with the sentence to show; nothing was changed when one is thrown. */
export class BackupError extends Error {
  constructor(
    readonly code: BackupErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BackupError';
  }
}

export type Log = (line: string) => void;

export type BackupResult = { file: string; bytes: number; manifest: Manifest; skipped: string[] };

/** Writes a backup of the embedded DATA_DIR to `out` (default: ./verity-backup-<UTC time>.tar.gz). */
export async function createBackup(opts: {
  config: Config;
  out?: string;
  now?: Date;
  log?: Log;
}): Promise<BackupResult> {
  const { config } = opts;
  const log = opts.log ?? (() => {});
  assertEmbedded(config, 'backup');
  const dataDir = config.dataDir;
  const pgDir = path.join(dataDir, 'pg');
  const objectsDir = objectsDirOf(config);
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    throw new BackupError(
      'no_database',
      `There is no embedded database in ${dataDir}, so there is nothing to back up. Set DATA_DIR to the directory ` +
        'Verity runs with (default ./data).',
    );
  }
  const out = path.resolve(opts.out ?? defaultBackupName(opts.now ?? new Date()));
  if (fs.existsSync(out)) {
    throw new BackupError('output_exists', `${out} already exists. Choose another file with --out, or remove it.`);
  }
  if (isInside(out, pgDir) || isInside(out, objectsDir)) {
    throw new BackupError(
      'output_exists',
      `${out} is inside the data it backs up. Choose a file elsewhere with --out.`,
    );
  }

  const release = takeLock(dataDir, 'backup');
  try {
    log(`Reading the embedded database in ${pgDir}`);
    const { database, counts } = await readDatabase(pgDir);
    const { sources, skipped } = await listSources(dataDir, pgDir, objectsDir);
    const secretIncluded = sources.some((s) => s.name === 'secret');
    const base: Omit<Manifest, 'members'> = {
      format: 'verity-backup',
      formatVersion: FORMAT_VERSION,
      verityVersion: verityVersion(),
      createdAt: (opts.now ?? new Date()).toISOString(),
      database,
      counts,
      objects: sources.filter((s) => s.name.startsWith('objects/')).length,
      secretIncluded,
    };
    log(`Writing ${sources.length} files and folders to ${out}`);
    const manifest = await writeArchive(out, sources, base);
    return { file: out, bytes: fs.statSync(out).size, manifest, skipped };
  } finally {
    release();
  }
}

export function assertEmbedded(config: Config, what: 'backup' | 'restore') {
  if (config.databaseUrl || config.storage.driver === 's3') {
    throw new BackupError(
      'not_embedded',
      `npm run ${what} is for the embedded mode only (no DATABASE_URL, local storage). With PostgreSQL and S3 the ` +
        'backups are the operator’s: pg_dump (or your provider’s snapshots) for the database and bucket versioning ' +
        'for the objects, with SESSION_SECRET kept alongside.',
    );
  }
}

export function objectsDirOf(config: Config): string {
  return config.storage.localDir ?? path.join(config.dataDir, 'objects');
}

export function defaultBackupName(now: Date): string {
  return `verity-backup-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`;
}

export function takeLock(dataDir: string, what: 'backup' | 'restore'): () => void {
  try {
    return lockDataDir(dataDir);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    let pid = '?';
    try {
      pid = fs.readFileSync(path.join(dataDir, 'verity.lock'), 'utf8').trim() || '?';
    } catch {
      // released in the meantime: the sentence still holds for the next attempt
    }
    throw new BackupError(
      'server_running',
      `Verity (pid ${pid}) is running on ${dataDir}. Stop it first, then run npm run ${what} again: ` +
        (what === 'backup'
          ? 'a backup taken while the server writes would not be consistent.'
          : 'restoring under a running server would corrupt its database.'),
    );
  }
}

async function readDatabase(pgDir: string): Promise<{ database: Manifest['database']; counts: Counts }> {
  // Not openDatabase(): that migrates, and a backup taken before an upgrade must hold the database as it was.
  // Extensions and settings match server/db/client.ts so the database opens exactly as the server opens it.
  const client = await PGlite.create(pgDir, {
    extensions: { pg_trgm },
    postgresqlconf: ['max_wal_size=64MB', 'min_wal_size=32MB'],
  });
  try {
    const database = await databaseVersions(client);
    const counts = await countRows(client);
    // Every committed change reaches the data files, so the copy taken after close needs no WAL replay.
    await client.exec('CHECKPOINT');
    return { database, counts };
  } finally {
    await client.close();
  }
}

type Source = { name: string; type: 'file' | 'dir'; path: string; size: number; mode: number; mtime: Date };

// PostgreSQL's own lock files belong to a running server; pg_basebackup leaves them out too.
const PG_RUNTIME_FILES = new Set(['postmaster.pid', 'postmaster.opts']);

async function listSources(dataDir: string, pgDir: string, objectsDir: string) {
  const sources: Source[] = [];
  const skipped: string[] = [];
  const secret = path.join(dataDir, 'secret');
  const secretStat = fs.statSync(secret, { throwIfNoEntry: false });
  if (secretStat?.isFile()) sources.push(source('secret', 'file', secret, secretStat));
  await walk(pgDir, (rel, full, st) => {
    if (st.isDirectory()) sources.push(source(`pg/${rel}`, 'dir', full, st));
    else if (st.isFile()) {
      if (!PG_RUNTIME_FILES.has(rel)) sources.push(source(`pg/${rel}`, 'file', full, st));
    } else throw new Error(`${full} is neither a file nor a folder; the embedded database should hold no such thing`);
  });
  if (fs.existsSync(objectsDir)) {
    await walk(objectsDir, (rel, full, st) => {
      if (!st.isFile()) return;
      // Only objects Verity can name are backed up; half-received uploads (.part) and strangers are not.
      if (isUploadKey(rel)) sources.push(source(`objects/${rel}`, 'file', full, st));
      else if (!rel.endsWith('.part')) skipped.push(full);
    });
  }
  return { sources, skipped };
}

function source(name: string, type: 'file' | 'dir', full: string, st: fs.Stats): Source {
  return { name, type, path: full, size: type === 'file' ? st.size : 0, mode: st.mode, mtime: st.mtime };
}

/** Depth-first, sorted, relative POSIX paths; a folder comes before its contents. */
async function walk(root: string, visit: (rel: string, full: string, st: fs.Stats) => void, rel = ''): Promise<void> {
  const entries = (await fsp.readdir(path.join(root, rel))).sort();
  for (const name of entries) {
    const childRel = rel ? `${rel}/${name}` : name;
    const full = path.join(root, childRel);
    const st = await fsp.lstat(full);
    visit(childRel, full, st);
    if (st.isDirectory()) await walk(root, visit, childRel);
  }
}

export function isUploadKey(key: string): boolean {
  try {
    assertUploadKey(key);
    return true;
  } catch {
    return false;
  }
}

async function writeArchive(out: string, sources: Source[], base: Omit<Manifest, 'members'>): Promise<Manifest> {
  let manifest: Manifest | null = null;
  async function* chunks(): AsyncGenerator<Buffer> {
    const members: ManifestMember[] = [];
    for (const s of sources) {
      yield tarHeader({ name: s.name, type: s.type, size: s.size, mode: s.mode, mtime: s.mtime });
      if (s.type === 'dir') {
        members.push({ name: s.name, type: 'dir' });
        continue;
      }
      const hash = crypto.createHash('sha256');
      let size = 0;
      for await (const chunk of s.size > 0 ? fs.createReadStream(s.path) : []) {
        const buf = chunk as Buffer;
        hash.update(buf);
        size += buf.length;
        if (size > s.size) break;
        yield buf;
      }
      // The lock keeps Verity out; a size change means something else touched the directory during the backup.
      if (size !== s.size) throw new Error(`${s.path} changed while it was being backed up; run the backup again`);
      yield tarPadding(s.size);
      members.push({ name: s.name, type: 'file', size: s.size, sha256: hash.digest('hex') });
    }
    manifest = { ...base, members };
    const bytes = Buffer.from(JSON.stringify(manifest, null, 2));
    yield tarHeader({ name: MANIFEST_NAME, type: 'file', size: bytes.length, mode: 0o644, mtime: new Date() });
    yield bytes;
    yield tarPadding(bytes.length);
    yield tarEnd();
  }
  // Written under a temporary name and renamed once complete and on disk: a crash never leaves a file that looks
  // like a whole backup.
  const partial = `${out}.partial`;
  try {
    // Level 1: the server is stopped while this runs, so time is downtime; level 6 is ~3x slower on the database
    // for ~15% less, and uploaded files (PDFs, images, Office files) are already compressed.
    await pipeline(
      Readable.from(chunks()),
      zlib.createGzip({ level: 1 }),
      fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
    );
    const handle = await fsp.open(partial, 'r+');
    await handle.sync().finally(() => handle.close());
    await fsp.rename(partial, out);
  } catch (err) {
    await fsp.rm(partial, { force: true });
    throw err;
  }
  if (!manifest) throw new Error('the archive was written without its manifest');
  return manifest;
}

export function isInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
