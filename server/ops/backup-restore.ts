import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import type { Config } from '../config';
import { openDatabase } from '../db/client';
import { ArchiveFormatError, readTar } from './backup-archive';
import { BackupError, assertEmbedded, isInside, isUploadKey, objectsDirOf, takeLock, type Log } from './backup';
import {
  FORMAT_VERSION,
  MANIFEST_NAME,
  Manifest,
  countRows,
  readJournal,
  verityVersion,
  type Counts,
} from './backup-manifest';

export type RestoreResult = { manifest: Manifest; counts: Counts; dataDir: string; objectsDir: string };

/**
 * Restores a backup into the embedded DATA_DIR. The archive is read twice: once to check every member against the
 * manifest before anything is written, once to unpack into a staging folder inside DATA_DIR. The staged database is
 * opened (and migrated, as a server start would) and its counts compared with the manifest; only then does it
 * replace what DATA_DIR held. Any failure before that leaves DATA_DIR as it was.
 */
export async function restoreBackup(opts: { config: Config; file: string; force: boolean; log?: Log }) {
  const { config } = opts;
  const log = opts.log ?? (() => {});
  assertEmbedded(config, 'restore');
  const file = path.resolve(opts.file);
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
    throw new BackupError('archive_missing', `${file} does not exist or is not a file. Give the path of a backup.`);
  }
  const dataDir = config.dataDir;
  const objectsDir = objectsDirOf(config);
  const dataDirExisted = fs.existsSync(dataDir);
  const release = takeLock(dataDir, 'restore');
  const staging = path.join(dataDir, `.restore-${process.pid}`);
  try {
    const held = heldData(dataDir, objectsDir);
    if (held.length > 0 && !opts.force) {
      throw new BackupError(
        'target_not_empty',
        `${dataDir} already holds Verity data (${held.join(', ')}). A restore replaces it: run the restore again ` +
          'with --force to replace it, or set DATA_DIR to an empty or new directory.',
      );
    }
    // Left by a restore that was killed; the lock says no other restore is running.
    for (const n of fs.readdirSync(dataDir)) {
      if (n.startsWith('.restore-')) await fsp.rm(path.join(dataDir, n), { recursive: true, force: true });
    }
    log(`Checking ${file}`);
    const { manifest, manifestSha } = await verifyArchive(file);
    assertCompatible(manifest);
    log(
      `Backup of ${manifest.createdAt} (Verity ${manifest.verityVersion}, PostgreSQL ${manifest.database.postgresVersion}): ` +
        `${manifest.members.length} members, every checksum matches`,
    );
    await fsp.rm(staging, { recursive: true, force: true });
    await extractArchive(file, manifest, manifestSha, staging);
    log('Opening the restored database');
    const counts = await checkRestoredDatabase(staging, manifest);
    await swapIntoPlace(staging, dataDir, objectsDir, manifest.secretIncluded);
    return { manifest, counts, dataDir, objectsDir } satisfies RestoreResult;
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
    release();
    // A DATA_DIR this restore created only to hold its lock goes again when the restore did not happen.
    if (!dataDirExisted && fs.existsSync(dataDir) && fs.readdirSync(dataDir).length === 0) fs.rmdirSync(dataDir);
  }
}

const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;

type Seen = { type: 'file' | 'dir'; size: number; sha256: string };

/** Pass one: reads the whole archive, checks it against its manifest, writes nothing. */
async function verifyArchive(file: string): Promise<{ manifest: Manifest; manifestSha: string }> {
  await assertGzip(file);
  const seen = new Map<string, Seen>();
  let manifestBytes: Buffer | null = null;
  let afterManifest = false;
  await readArchive(file, async (header, data) => {
    if (manifestBytes) afterManifest = true;
    if (seen.has(header.name)) throw damaged(file, `${header.name} appears twice`);
    // The manifest is the one member held in memory; a real one is ~150 bytes per file backed up.
    if (header.name === MANIFEST_NAME && header.size > MAX_MANIFEST_BYTES)
      throw damaged(file, 'its manifest is too large');
    const hash = crypto.createHash('sha256');
    const parts: Buffer[] = [];
    for await (const chunk of data) {
      hash.update(chunk);
      if (header.name === MANIFEST_NAME) parts.push(chunk);
    }
    if (header.name === MANIFEST_NAME) manifestBytes = Buffer.concat(parts);
    seen.set(header.name, { type: header.type, size: header.size, sha256: hash.digest('hex') });
  });
  if (!manifestBytes || afterManifest) {
    throw new BackupError('not_a_backup', `${file} is not a Verity backup: it has no manifest.json at its end.`);
  }
  const manifest = parseManifest(file, manifestBytes);
  const expected = new Set<string>([MANIFEST_NAME]);
  for (const m of manifest.members) {
    expected.add(m.name);
    assertSafeName(file, m.name, m.type);
    const got = seen.get(m.name);
    if (!got) throw damaged(file, `${m.name} is listed in the manifest but missing`);
    if (got.type !== m.type) throw damaged(file, `${m.name} is not what the manifest lists`);
    if (m.type === 'file' && (got.size !== m.size || got.sha256 !== m.sha256)) {
      throw damaged(file, `${m.name} does not match its checksum`);
    }
  }
  const extra = [...seen.keys()].find((name) => !expected.has(name));
  if (extra) throw damaged(file, `${extra} is not listed in the manifest`);
  return { manifest, manifestSha: seen.get(MANIFEST_NAME)?.sha256 ?? '' };
}

function parseManifest(file: string, bytes: Buffer): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw damaged(file, 'its manifest is not valid JSON');
  }
  const format = (json as { format?: unknown; formatVersion?: unknown } | null) ?? {};
  if (format.format !== 'verity-backup') {
    throw new BackupError('not_a_backup', `${file} is not a Verity backup (its manifest names no Verity backup).`);
  }
  if (typeof format.formatVersion === 'number' && format.formatVersion > FORMAT_VERSION) {
    throw new BackupError(
      'archive_incompatible',
      `${file} was written by a newer Verity (backup format ${format.formatVersion}; this one reads up to ` +
        `${FORMAT_VERSION}). Update Verity, then restore.`,
    );
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) throw damaged(file, 'its manifest is incomplete');
  return parsed.data;
}

function assertCompatible(manifest: Manifest) {
  const latest = manifest.database.migration.latest;
  const journal = readJournal();
  if (latest && !journal.some((e) => e.tag === latest)) {
    throw new BackupError(
      'archive_incompatible',
      `This backup's database is at migration ${latest}, which this Verity (${verityVersion()}, last migration ` +
        `${journal.at(-1)?.tag ?? 'none'}) does not know: it was made by a newer Verity. Update Verity, then restore.`,
    );
  }
}

/** Member names map to paths below the staging folder; nothing may climb out of it or be other than Verity's. */
function assertSafeName(file: string, name: string, type: 'file' | 'dir') {
  const ok =
    (name === 'secret' && type === 'file') ||
    (name.startsWith('pg/') &&
      name.length > 3 &&
      name
        .slice(3)
        .split('/')
        .every((part) => part !== '' && part !== '.' && part !== '..')) ||
    (name.startsWith('objects/') && type === 'file' && isUploadKey(name.slice('objects/'.length)));
  if (!ok) throw damaged(file, `it holds a member Verity never writes (${JSON.stringify(name)})`);
}

/** Pass two: unpacks into `staging`, checking every file's checksum again as it is written. */
async function extractArchive(file: string, manifest: Manifest, manifestSha: string, staging: string) {
  const byName = new Map(manifest.members.map((m) => [m.name, m]));
  await fsp.mkdir(path.join(staging, 'pg'), { recursive: true, mode: 0o700 });
  await fsp.mkdir(path.join(staging, 'objects'), { recursive: true });
  await readArchive(file, async (header, data) => {
    const member = byName.get(header.name);
    if (header.name === MANIFEST_NAME) {
      const hash = crypto.createHash('sha256');
      for await (const chunk of data) hash.update(chunk);
      if (hash.digest('hex') !== manifestSha) throw changedSinceCheck(file);
      return;
    }
    if (!member || member.type !== header.type) throw changedSinceCheck(file);
    const target = path.join(staging, ...header.name.split('/'));
    if (member.type === 'dir') {
      await fsp.mkdir(target, { recursive: true, mode: 0o700 });
      return;
    }
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const hash = crypto.createHash('sha256');
    const hashed = async function* () {
      for await (const chunk of data) {
        hash.update(chunk);
        yield chunk;
      }
    };
    await pipeline(Readable.from(hashed()), fs.createWriteStream(target, { flags: 'wx', mode: 0o600 }));
    if (hash.digest('hex') !== member.sha256) throw changedSinceCheck(file);
    await fsp.utimes(target, header.mtime, header.mtime);
  });
}

/** Opens the staged database as a server start would (migrations included) and compares its counts. */
async function checkRestoredDatabase(staging: string, manifest: Manifest): Promise<Counts> {
  let database;
  try {
    database = await openDatabase({ kind: 'pglite', dataDir: staging });
  } catch (err) {
    throw new BackupError(
      'archive_incompatible',
      `The database in this backup (PostgreSQL ${manifest.database.postgresVersion}, PGlite ` +
        `${manifest.database.pgliteVersion}) could not be opened: ${err instanceof Error ? err.message : String(err)}. ` +
        `Restore it with the Verity version that made it (${manifest.verityVersion}). Nothing was changed.`,
    );
  }
  try {
    const counts = await countRows((database.db as unknown as { $client: PGlite }).$client);
    const differ = (Object.keys(manifest.counts) as Array<keyof Counts>).filter(
      (k) => counts[k] !== manifest.counts[k],
    );
    if (differ.length > 0) {
      throw new BackupError(
        'restore_check_failed',
        `The restored database does not hold what the backup recorded (${differ
          .map((k) => `${k}: ${counts[k]} instead of ${manifest.counts[k]}`)
          .join(', ')}). Nothing was changed.`,
      );
    }
    return counts;
  } finally {
    await database.close();
  }
}

/**
 * Moves the staged database, objects and secret into place. What they replace is first renamed aside (same parent
 * folder, so renames cannot fail half-way for lack of space) and deleted only once everything new is in place; a
 * failure in between puts the old back.
 */
async function swapIntoPlace(staging: string, dataDir: string, objectsDir: string, withSecret: boolean) {
  const moves = [
    { from: path.join(staging, 'pg'), to: path.join(dataDir, 'pg') },
    { from: path.join(staging, 'objects'), to: objectsDir },
    { from: withSecret ? path.join(staging, 'secret') : null, to: path.join(dataDir, 'secret') },
  ];
  const asideOf = (p: string) => `${p}.replaced-${process.pid}`;
  const setAside: string[] = [];
  const movedIn: string[] = [];
  try {
    for (const m of moves) {
      if (fs.existsSync(m.to)) {
        await fsp.rename(m.to, asideOf(m.to));
        setAside.push(m.to);
      }
      if (m.from) {
        await fsp.mkdir(path.dirname(m.to), { recursive: true });
        await move(m.from, m.to);
        movedIn.push(m.to);
      }
    }
  } catch (err) {
    for (const p of movedIn) await fsp.rm(p, { recursive: true, force: true });
    for (const p of setAside) await fsp.rename(asideOf(p), p);
    throw err;
  }
  for (const p of setAside) await fsp.rm(asideOf(p), { recursive: true, force: true });
}

/** A rename, or a copy when STORAGE_DIR is on another file system than DATA_DIR. */
async function move(from: string, to: string) {
  try {
    await fsp.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fsp.cp(from, to, { recursive: true, preserveTimestamps: true, errorOnExist: true });
    await fsp.rm(from, { recursive: true, force: true });
  }
}

/** What of Verity's a restore would replace: DATA_DIR's entries (bar its lock) and the object store's. */
function heldData(dataDir: string, objectsDir: string): string[] {
  const held = fs.existsSync(dataDir)
    ? fs.readdirSync(dataDir).filter((n) => n !== 'verity.lock' && !n.startsWith('.restore-'))
    : [];
  if (!isInside(objectsDir, dataDir) && fs.existsSync(objectsDir) && fs.readdirSync(objectsDir).length > 0) {
    held.push(objectsDir);
  }
  return held;
}

async function readArchive(file: string, onMember: Parameters<typeof readTar>[1]): Promise<void> {
  const gunzip = zlib.createGunzip();
  const input = fs.createReadStream(file);
  input.on('error', (err) => gunzip.destroy(err));
  input.pipe(gunzip);
  try {
    await readTar(gunzip as AsyncIterable<Buffer>, onMember);
  } catch (err) {
    throw archiveError(file, err);
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

async function assertGzip(file: string) {
  const handle = await fsp.open(file, 'r');
  const head = Buffer.alloc(2);
  await handle.read(head, 0, 2, 0).finally(() => handle.close());
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    throw new BackupError('not_a_backup', `${file} is not a Verity backup (not a .tar.gz file).`);
  }
}

function archiveError(file: string, err: unknown): unknown {
  if (err instanceof BackupError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if ((err instanceof ArchiveFormatError && err.truncated) || code === 'Z_BUF_ERROR') {
    return new BackupError(
      'archive_truncated',
      `${file} is incomplete: it ends before the backup does (was the copy cut short?). Nothing was restored; ` +
        'use a complete copy of the backup.',
    );
  }
  if (err instanceof ArchiveFormatError || code === 'Z_DATA_ERROR') {
    return damaged(file, err instanceof Error ? err.message : String(err));
  }
  return err;
}

function damaged(file: string, detail: string): BackupError {
  return new BackupError(
    'archive_damaged',
    `${file} is damaged (${detail}). Nothing was restored; use another copy of the backup.`,
  );
}

function changedSinceCheck(file: string): BackupError {
  return new BackupError(
    'archive_damaged',
    `${file} changed while it was being restored. Nothing was restored; run the restore again.`,
  );
}
