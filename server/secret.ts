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

const SEAL_VERSION = 'v1';

/** A 256-bit key for one purpose, derived from the server secret so a sealed value is useless elsewhere. */
function sealKey(serverSecret: string, purpose: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', serverSecret, 'verity-seal', purpose, 32));
}

/**
 * Encrypts a value to keep at rest (AES-256-GCM with a fresh IV). `context` (e.g. the owning organization's id) is
 * authenticated, not stored: a sealed value copied to another row no longer opens.
 */
export function seal(serverSecret: string, purpose: string, plaintext: string, context = ''): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', sealKey(serverSecret, purpose), iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [SEAL_VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The plaintext of `seal`'s output; throws when the value was tampered with, moved or sealed under another secret. */
export function unseal(serverSecret: string, purpose: string, sealed: string, context = ''): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== SEAL_VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed value');
  const decipher = crypto.createDecipheriv('aes-256-gcm', sealKey(serverSecret, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
