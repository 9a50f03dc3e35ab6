import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UPLOAD_MAX_BYTES } from '../../../common/constants';
import { UploadUrlBody, UploadUrlView } from '../../../common/schemas/documents';
import { requireUser } from '../../http/context';
import { AppError } from '../../http/errors';
import { assertUploadKey } from '../../storage/keys';
import { LocalStorage, ObjectExistsError, TooLargeError } from '../../storage/local';
import { verifyUpload } from '../../storage/signing';
import { StorageKeyError } from '../../storage/types';
import { claimUploadLink, issueUploadLink, quotaExceeded, storageUsed } from './uploads';

const tag = { tags: ['documents'] };

const LocalUploadQuery = z.object({
  expires: z.coerce.number().int(),
  max: z.coerce.number().int().min(0),
  sig: z.string().min(1).max(200),
});

const forbiddenLink = (message: string) => new AppError(403, 'invalid_upload_link', message);
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

export async function objectRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const storage = root.deps.storage;
  const limits = root.deps.config.uploads;

  app.post(
    '/api/objects/upload',
    {
      config: { policy: 'documents:upload' },
      schema: { ...tag, body: UploadUrlBody, response: { 200: UploadUrlView } },
    },
    async (req, reply) => {
      const ctx = requireUser(req);
      try {
        return await issueUploadLink(ctx, storage, limits, req.body?.size);
      } catch (err) {
        const wait = err instanceof AppError && (err.details as { retryAfterSeconds?: number })?.retryAfterSeconds;
        if (wait) reply.header('Retry-After', String(wait));
        throw err;
      }
    },
  );

  if (!(storage instanceof LocalStorage)) return;
  const local = storage;

  // The local driver's upload target. The signed URL is the authority (no session: Uppy PUTs the bare file), and
  // the body is streamed to disk rather than parsed, whatever its content type.
  await app.register(async (child) => {
    child.removeAllContentTypeParsers();
    child.addContentTypeParser('*', (_req, _payload, done) => done(null));
    child
      .withTypeProvider<ZodTypeProvider>()
      .put(
        '/api/objects/local/*',
        { config: { public: true }, schema: { hide: true, querystring: LocalUploadQuery } },
        async (req, reply) => {
          const key = (req.params as { '*': string })['*'];
          const { expires, max, sig } = req.query;
          if (!verifyUpload(req.server.deps.config.sessionSecret ?? '', { key, expires, maxBytes: max }, sig)) {
            throw forbiddenLink('The upload link is invalid. Start the upload again.');
          }
          if (expires * 1000 < Date.now()) throw forbiddenLink('The upload link has expired. Start the upload again.');
          let organizationId: string;
          try {
            ({ organizationId } = assertUploadKey(key));
          } catch {
            throw forbiddenLink('The upload link is invalid. Start the upload again.');
          }
          const declared = Number(req.headers['content-length'] ?? 0);
          if (declared > max) {
            reply.header('Connection', 'close');
            throw tooLarge();
          }
          const { db } = req.server.deps;
          // Claimed before a byte is written: of two PUTs on one link, only one ever reaches the disk.
          const link = await claimUploadLink(db, key, ['issued'], 'uploading');
          if (!link) throw usedLink();
          const release = () => claimUploadLink(db, key, ['uploading'], 'issued').catch(() => null);

          const room = limits.quotaBytes - (await storageUsed(db, organizationId, key));
          if (declared > room || room <= 0) {
            await release();
            reply.header('Connection', 'close');
            throw quotaExceeded(limits.quotaBytes);
          }
          const cap = Math.min(max, room);
          try {
            const stored = await local.writeStream(key, req.raw, cap);
            await claimUploadLink(db, key, ['uploading'], 'uploaded', stored);
            return reply.code(200).header('ETag', `"${stored.sha256}"`).send({ key, size: stored.size });
          } catch (err) {
            await release();
            if (err instanceof TooLargeError) {
              await drain(req.raw, UPLOAD_MAX_BYTES, 30_000);
              reply.header('Connection', 'close');
              throw cap < max ? quotaExceeded(limits.quotaBytes) : tooLarge();
            }
            if (err instanceof ObjectExistsError) throw usedLink();
            if (err instanceof StorageKeyError)
              throw forbiddenLink('The upload link is invalid. Start the upload again.');
            throw err;
          }
        },
      );
  });
}
