import crypto from 'node:crypto';
import type { Readable } from 'node:stream';

export type Digest = { size: number; sha256: string };

/** Size and SHA-256 (hex) of a stream, read once in chunks (never the whole object in memory). */
export async function digestStream(body: Readable): Promise<Digest> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of body) {
    const bytes = chunk as Uint8Array;
    size += bytes.length;
    hash.update(bytes);
  }
  return { size, sha256: hash.digest('hex') };
}
