import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config';
import { openConfiguredDatabase } from '../db/open-configured';
import { createStorage } from '../storage/create';
import { checkIntegrity, formatIntegrityReport } from './integrity';

const USAGE = `usage: npm run integrity [-- --quiescent] [-- --sizes-only] [-- --organization <id>]…
  Checks the database of DATA_DIR (or DATABASE_URL) and its stored files; prints "integrity: ok" or the problems.
  Each stored file's size, and its SHA-256 when recorded at upload, are compared with its row.
  --quiescent         nothing runs and all work should be done: anything still in flight is a problem
  --sizes-only        compare sizes but do not read every file for its SHA-256 (a very large store)
  --organization <id> check this organization only (repeatable)`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseArgs(argv: string[]): { quiescent: boolean; checksums: boolean; organizationIds?: string[] } {
  let quiescent = false;
  let checksums = true;
  const organizationIds: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--quiescent') quiescent = true;
    else if (arg === '--sizes-only') checksums = false;
    else if (arg === '--organization' && UUID.test(argv[i + 1] ?? '')) organizationIds.push(argv[(i += 1)] ?? '');
    else {
      console.error(
        `${arg === '--organization' ? '--organization needs an organization id.' : `Unknown argument ${arg}.`}\n${USAGE}`,
      );
      process.exit(2);
    }
  }
  return { quiescent, checksums, ...(organizationIds.length > 0 && { organizationIds }) };
}

/**
 * `npm run integrity`: exit 0 and "integrity: ok", or the problems and exit 1. On the embedded database it takes
 * the data directory's lock like `npm start`, so it refuses to run beside the server instead of reading a database
 * another process is writing.
 */
async function main() {
  const args = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  // Opening a directory with no database would create an empty one and call it sound.
  if (!config.databaseUrl && !fs.existsSync(path.join(config.dataDir, 'pg'))) {
    console.error(
      `There is no Verity database in ${config.dataDir}. Set DATA_DIR to Verity's data directory, or DATABASE_URL to its PostgreSQL.`,
    );
    process.exit(1);
  }
  const database = await openConfiguredDatabase(config);
  try {
    // The check never signs an upload URL, so it needs no secret and must not create one in DATA_DIR.
    const storage = createStorage({
      ...config,
      sessionSecret: config.sessionSecret ?? 'integrity-check-signs-nothing',
    });
    const problems = await checkIntegrity(database.db, storage, {
      ...args,
      questionClaimMs: config.questionClaimMs,
      documentClaimMs: config.documentClaimMs,
    });
    console.log(formatIntegrityReport(problems));
    process.exitCode = problems.length === 0 ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
