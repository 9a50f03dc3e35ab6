import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertUploadKey } from './keys';
import { digestStream, type Digest } from './digest';
import { signUpload } from './signing';
import { StorageKeyError, type ObjectStorage } from './types';

/**
 * Files under one directory (default DATA_DIR/objects). Upload URLs point at Verity itself
 * (`PUT /api/objects/local/<key>`), signed with HMAC so only the server can grant them.
 */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(
    root: string,
    private readonly publicUrl: string,
    private readonly secret: string,
  ) {
    this.root = path.resolve(root);
  }

  /** The file of a key; the key is checked and the result must stay under the root (belt and braces). */
  pathOf(key: string): string {
    assertUploadKey(key);
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new StorageKeyError('Invalid object key');
    return file;
  }

  async createUploadUrl(key: string, opts: { maxBytes: number; expiresInSeconds: number }): Promise<string> {
    assertUploadKey(key);
    const expires = Math.floor(Date.now() / 1000) + opts.expiresInSeconds;
    const sig = signUpload(this.secret, { key, expires, maxBytes: opts.maxBytes });
    const q = new URLSearchParams({ expires: String(expires), max: String(opts.maxBytes), sig });
    return `${this.publicUrl}/api/objects/local/${key}?${q.toString()}`;
  }

  /**
   * Streams a body into place while hashing it. It goes to a temporary file of its own first (two writers never
   * share one) and is then linked under the key only if nothing is there: an object is never replaced, and a
   * half-received upload never becomes one. Past `maxBytes` it stops writing and rejects with TooLargeError,
   * leaving the rest of the body paused for the caller to drain or drop.
   */
  async writeStream(key: string, body: Readable, maxBytes: number): Promise<Digest> {
    const file = this.pathOf(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${crypto.randomUUID()}.part`;
    const hash = crypto.createHash('sha256');
    let size = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        const out = fs.createWriteStream(tmp, { flags: 'wx' });
        const onData = (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            body.off('data', onData);
            body.unpipe(out);
            body.pause();
            out.destroy();
            reject(new TooLargeError());
            return;
          }
          hash.update(chunk);
        };
        body.on('data', onData);
        body.on('error', reject);
        // A client that hangs up mid-body: nothing more will come and nothing may be kept.
        body.on('close', () => {
          if (!body.readableEnded) reject(new UploadAbortedError());
        });
        out.on('error', reject);
        out.on('finish', resolve);
        body.pipe(out);
      });
      try {
        await fsp.link(tmp, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new ObjectExistsError();
        throw err;
      }
      return { size, sha256: hash.digest('hex') };
    } finally {
      await fsp.rm(tmp, { force: true });
    }
  }

  async write(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.pathOf(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    // Temporary file then rename, as writeStream: a crash never leaves half an object.
    const tmp = `${file}.${crypto.randomUUID()}.part`;
    try {
      await fsp.writeFile(tmp, bytes, { flag: 'wx' });
      await fsp.rename(tmp, file);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  async head(key: string) {
    try {
      const st = await fsp.stat(this.pathOf(key));
      return st.isFile() ? { size: st.size } : null;
    } catch {
      return null;
    }
  }

  async readStart(key: string, bytes: number): Promise<Uint8Array> {
    const handle = await fsp.open(this.pathOf(key), 'r');
    try {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buf, 0, bytes, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async read(key: string): Promise<Uint8Array> {
    return fsp.readFile(this.pathOf(key));
  }

  async stream(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    await fsp.access(file);
    return fs.createReadStream(file);
  }

  async digest(key: string): Promise<Digest> {
    return digestStream(fs.createReadStream(this.pathOf(key)));
  }

  /** The PUT route claims a link before writing, so no second write can reach this key. */
  async seal(key: string): Promise<string> {
    assertUploadKey(key);
    return key;
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async list(prefix: string): Promise<Array<{ key: string; modifiedAt: Date; size: number }>> {
    const out: Array<{ key: string; modifiedAt: Date; size: number }> = [];
    await this.#walk(prefix, async (full, name) => {
      if (name.endsWith('.part')) return;
      const st = await fsp.stat(full);
      out.push({ key: path.relative(this.root, full).split(path.sep).join('/'), modifiedAt: st.mtime, size: st.size });
    });
    return out;
  }

  async sweepPartials(prefix: string, olderThan: Date): Promise<number> {
    let removed = 0;
    await this.#walk(prefix, async (full, name) => {
      if (!name.endsWith('.part')) return;
      const st = await fsp.stat(full).catch(() => null);
      if (!st || st.mtime > olderThan) return;
      await fsp.rm(full, { force: true });
      removed += 1;
    });
    return removed;
  }

  /** Calls `visit` for every file under a prefix of the root. */
  async #walk(prefix: string, visit: (full: string, name: string) => Promise<void>): Promise<void> {
    const base = path.resolve(this.root, prefix);
    if (!base.startsWith(this.root)) return;
    const walk = async (dir: string): Promise<void> => {
      const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) await walk(full);
        else if (e.isFile()) await visit(full, e.name);
      }
    };
    await walk(base);
  }
}

export class TooLargeError extends Error {}
/** The client stopped sending before the end of the body. */
export class UploadAbortedError extends Error {}
/** Something is already stored under the key. */
export class ObjectExistsError extends Error {}
