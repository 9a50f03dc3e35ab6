import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import pino from 'pino';
import pretty from 'pino-pretty';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { DataDirLockedError } from './db/data-dir-lock';
import { buildApp } from './app';
import { createMailer } from './mail/mailer';
import { ensureDemoUser } from './modules/auth/demo';
import { purgeExpiredSessions } from './modules/auth/sessions';

/** Entry: config → database (migrated) → app → listen. One process serves the API and the web app. */
async function main() {
  const config = loadConfig();
  // Readable lines for a person at a terminal; JSON lines (for log collectors) everywhere else.
  const log = process.stdout.isTTY
    ? pino({ level: config.logLevel }, pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }))
    : pino({ level: config.logLevel });
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  ).catch((err: unknown) => {
    if (err instanceof DataDirLockedError) {
      // Plain text, not a JSON log line: this is the one message the person starting Verity must read.
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  });
  if (!config.sessionSecret) config.sessionSecret = loadOrCreateSecret(config.dataDir);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, db: database.db, log });
  if (config.demoUser) await ensureDemoUser(database.db);
  await purgeExpiredSessions(database.db);

  const app = await buildApp({ db: database.db, config, mailer, log }, { loggerInstance: log });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal}: shutting down`);
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  log.info(
    `Verity is ready on ${config.publicUrl} (database: ${database.kind === 'pglite' ? `embedded in ${config.dataDir}` : 'PostgreSQL'})`,
  );
}

/** Signing secrets must survive restarts; without SESSION_SECRET one is generated once into DATA_DIR. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
