import { createHash, randomBytes } from 'node:crypto';

/** A random, URL-safe secret (session ids, invitation and reset tokens). */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens are stored only as their SHA-256: a leaked table cannot be replayed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
