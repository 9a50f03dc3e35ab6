import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config';
import { BackupError, createBackup } from './backup';
import { restoreBackup } from './backup-restore';
import type { Counts } from './backup-manifest';

/**
 * `npm run backup -- [--out FILE]` and `npm run restore -- FILE [--force]`. Exit codes: 0 done, 1 refused or failed
 * (the message says why and nothing was changed), 2 wrong usage.
 */
const USAGE = `Usage:
  npm run backup -- [--out FILE]      back up the embedded DATA_DIR (default ./data) into FILE
                                      (default ./verity-backup-<UTC time>.tar.gz)
  npm run restore -- FILE [--force]   restore FILE into DATA_DIR; --force replaces what DATA_DIR holds
Both need Verity stopped: the embedded database admits one process at a time.`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'backup') return await backup(rest);
    if (command === 'restore') return await restore(rest);
    throw new UsageError(`Unknown command ${JSON.stringify(command ?? '')}.`);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof BackupError) {
      console.error(err.message);
      return 1;
    }
    console.error(
      `${command === 'restore' ? 'Restore' : 'Backup'} failed: ${err instanceof Error ? err.message : err}`,
    );
    return 1;
  }
}

async function backup(args: string[]): Promise<number> {
  const { values } = asUsage(() =>
    parseArgs({ args, options: { out: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } } }),
  );
  if (values.help) return help();
  const config = configOrExit();
  const started = Date.now();
  const result = await createBackup({ config, out: values.out, log: console.log });
  const m = result.manifest;
  console.log(`Backup written: ${result.file} (${megabytes(result.bytes)}, ${seconds(Date.now() - started)})`);
  console.log(`  ${describeCounts(m.counts, m.objects)}`);
  console.log(
    `  database: PostgreSQL ${m.database.postgresVersion} (PGlite ${m.database.pgliteVersion}), ` +
      `migration ${m.database.migration.latest ?? 'none'}; Verity ${m.verityVersion}`,
  );
  if (process.env.SESSION_SECRET) {
    console.log(
      'SESSION_SECRET is set in the environment, so the secret Verity uses is not in this backup: keep ' +
        'SESSION_SECRET with it (SSO client secrets are sealed with it).',
    );
  }
  if (result.skipped.length > 0) {
    console.log(
      `Left out ${result.skipped.length} file(s) in the object store that are not Verity objects, e.g. ` +
        `${result.skipped.slice(0, 3).join(', ')}.`,
    );
  }
  console.log(`Restore it with: npm run restore -- ${result.file}`);
  return 0;
}

async function restore(args: string[]): Promise<number> {
  const { values, positionals } = asUsage(() =>
    parseArgs({
      args,
      options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    }),
  );
  if (values.help) return help();
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError('Give exactly one backup file to restore.');
  const config = configOrExit();
  const started = Date.now();
  const result = await restoreBackup({ config, file: positionals[0], force: values.force === true, log: console.log });
  console.log(`Restored into ${result.dataDir} (${seconds(Date.now() - started)}):`);
  console.log(`  ${describeCounts(result.counts, result.manifest.objects)}`);
  if (!result.manifest.secretIncluded) {
    console.log(
      'The backup holds no secret (its server used SESSION_SECRET): start Verity with the same SESSION_SECRET.',
    );
  }
  console.log('Start Verity with this DATA_DIR to use it: npm start');
  return 0;
}

/** A bad argument is a usage error (exit 2), not a failure. */
function asUsage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

function help(): number {
  console.log(USAGE);
  return 0;
}

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    throw new BackupError('bad_configuration', err instanceof Error ? err.message : String(err));
  }
}

export function describeCounts(c: Counts, objects: number): string {
  const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
  return [
    n(c.organizations, 'organization'),
    n(c.users, 'user'),
    n(c.workspaces, 'workspace'),
    n(c.libraryEntries, 'library entry', 'library entries'),
    `${n(c.documents, 'document')} (${n(c.documentChunks, 'chunk')})`,
    n(c.chatAnswers, 'chat answer'),
    `${n(c.assessments, 'assessment')} (${n(c.assessmentQuestions, 'question')})`,
    n(objects, 'stored file'),
  ].join(', ');
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

process.exitCode = await main(process.argv.slice(2));
