import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

/** Signing secrets must survive restarts; without SESSION_SECRET one is generated once into DATA_DIR. */
export function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

