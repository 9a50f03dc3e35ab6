import type { IncomingMessage } from 'node:http';
import { UPLOAD_MAX_BYTES } from '../../../common/constants';
import type { AppDeps } from '../../deps';
import { AppError, BodyRefused } from '../../errors';
import { assertUploadKey } from '../../storage/keys';
import { ObjectExistsError, TooLargeError } from '../../storage/local';
import { verifyUpload } from '../../storage/signing';
import { StorageKeyError } from '../../storage/types';
import { claimUploadLink, quotaExceeded, storageUsed } from './uploads';

/** What a signed local upload URL carries, as the PUT presents it. */
export type LocalUpload = { key: string; expires: number; max: number; sig: string; declaredBytes: number };

const forbiddenLink = (message: string) => new AppError(403, 'invalid_upload_link', message);
const invalidLink = () => forbiddenLink('The upload link is invalid. Start the upload again.');
const tooLarge = () => new AppError(413, 'payload_too_large', 'Files can be at most 50 MB.');
const usedLink = () => new AppError(409, 'conflict', 'This upload link has already been used. Start the upload again.');

/**
 * Reads and discards the rest of a refused body, so the client has sent everything by the time it reads the 413
 * (a server that closes while the client still sends makes it see a reset instead of the answer). Past `maxBytes`
 * more, or after `maxMs`, the connection is dropped instead: nobody is owed an answer for an endless body.
 */
function drain(body: IncomingMessage, maxBytes: number, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (body.readableEnded || body.destroyed) return resolve();
    let seen = 0;
    const stop = () => {
      clearTimeout(timer);
      body.off('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) {
        body.destroy();
        stop();
      }
    };
    const timer = setTimeout(() => {
      body.destroy();
      stop();
    }, maxMs);
    body.on('data', onData);
    body.once('end', stop);
    body.once('close', stop);
    body.resume();
  });
}

/**
 * The local driver's upload target: the signed URL is the authority (no session: Uppy PUTs the bare file). The
 * link is claimed before a byte is written, so of two PUTs on one link only one ever reaches the disk; the body is
 * streamed to disk within the link's limit and the organization's remaining quota.
 */
export async function receiveLocalUpload(
  deps: Pick<AppDeps, 'db' | 'storage' | 'config'>,
  upload: LocalUpload,
  body: IncomingMessage,
): Promise<{ key: string; size: number; sha256: string }> {
  const { db, storage, config } = deps;
  const { key, expires, max, sig, declaredBytes } = upload;
  const quotaBytes = config.uploads.quotaBytes;
  if (!storage.writeStream) throw new Error('This storage driver does not receive uploads itself');
  if (!verifyUpload(config.sessionSecret ?? '', { key, expires, maxBytes: max }, sig)) throw invalidLink();
  if (expires * 1000 < Date.now()) throw forbiddenLink('The upload link has expired. Start the upload again.');
  let organizationId: string;
  try {
    ({ organizationId } = assertUploadKey(key));
  } catch {
    throw invalidLink();
  }
  if (declaredBytes > max) throw new BodyRefused(tooLarge());
  const link = await claimUploadLink(db, key, ['issued'], 'uploading');
  if (!link) throw usedLink();
  const release = () => claimUploadLink(db, key, ['uploading'], 'issued').catch(() => null);

  const room = quotaBytes - (await storageUsed(db, organizationId, key));
  if (declaredBytes > room || room <= 0) {
    await release();
    throw new BodyRefused(quotaExceeded(quotaBytes));
  }
  const cap = Math.min(max, room);
  try {
    const stored = await storage.writeStream(key, body, cap);
    await claimUploadLink(db, key, ['uploading'], 'uploaded', stored);
    return { key, size: stored.size, sha256: stored.sha256 };
  } catch (err) {
    await release();
    if (err instanceof TooLargeError) {
      await drain(body, UPLOAD_MAX_BYTES, 30_000);
      throw new BodyRefused(cap < max ? quotaExceeded(quotaBytes) : tooLarge());
    }
    if (err instanceof ObjectExistsError) throw usedLink();
    if (err instanceof StorageKeyError) throw invalidLink();
    throw err;
  }
}
