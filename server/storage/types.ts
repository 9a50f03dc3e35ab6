import type { Readable } from 'node:stream';
import type { Digest } from './digest';

/** Where uploaded files live. Keys are made by the server (see keys.ts); drivers never trust a key blindly. */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /** A URL the browser PUTs one file body to, valid for `expiresInSeconds`, for at most `maxBytes`. */
  createUploadUrl(key: string, opts: { maxBytes: number; expiresInSeconds: number; size?: number }): Promise<string>;
  /** The object's size, or null when there is no such object. */
  head(key: string): Promise<{ size: number } | null>;
  /** The first `bytes` bytes (all of a smaller object). */
  readStart(key: string, bytes: number): Promise<Uint8Array>;
  /** Stores bytes the server itself received (a questionnaire posted as multipart), replacing any object. */
  write(key: string, bytes: Uint8Array): Promise<void>;
  /** The whole object. Uploads are at most 50 MB, so this fits in memory. */
  read(key: string): Promise<Uint8Array>;
  stream(key: string): Promise<Readable>;
  delete(key: string): Promise<void>;
  /** Keys under a prefix with their size and last-modified time (sweeping abandoned uploads, integrity). */
  list(prefix: string): Promise<Array<{ key: string; modifiedAt: Date; size: number }>>;
  /** The object's size and SHA-256, read as a stream. */
  digest(key: string): Promise<Digest>;
  /**
   * Puts an uploaded object out of reach of its upload link and returns the key it now lives under. A local link
   * is single-use (its PUT claims the link's row), so the object stays where it is; an S3 presigned URL can be
   * replayed until it expires, so the object is copied to a fresh key no link ever named (the caller deletes the
   * old one once the new key is recorded).
   */
  seal(key: string, organizationId: string): Promise<string>;
  /**
   * Removes the temporary files of writes that never finished (a process killed mid-upload) older than the cutoff;
   * returns how many. Only the local driver has any: an S3 upload is one PUT the store completes or drops.
   */
  sweepPartials?(prefix: string, olderThan: Date): Promise<number>;
  /**
   * Receives an upload's body itself, for a driver whose upload URLs point at Verity (the local one; an S3 upload
   * is PUT to the store). Rejects with TooLargeError past `maxBytes`, leaving the rest of the body unread.
   */
  writeStream?(key: string, body: Readable, maxBytes: number): Promise<Digest>;
}

export class StorageKeyError extends Error {}
