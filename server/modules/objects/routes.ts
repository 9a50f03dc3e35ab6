import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UPLOAD_MAX_BYTES, UPLOAD_URL_TTL_SECONDS } from '../../../common/constants';
import { UploadUrlBody, UploadUrlView } from '../../../common/schemas/documents';
import { requireUser } from '../../http/context';
import { authorize } from '../../http/policies';
import { AppError } from '../../http/errors';
import { newUploadKey } from '../../storage/keys';
import { LocalStorage, TooLargeError } from '../../storage/local';
import { verifyUpload } from '../../storage/signing';
import { StorageKeyError } from '../../storage/types';

const tag = { tags: ['documents'] };

const LocalUploadQuery = z.object({
  expires: z.coerce.number().int(),
  max: z.coerce.number().int().min(0),
  sig: z.string().min(1).max(200),
});

const forbiddenLink = (message: string) => new AppError(403, 'invalid_upload_link', message);
const tooLarge = () => new AppError(413, 'payload_too_large', 'Files can be at most 50 MB.');

export async function objectRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const storage = root.deps.storage;

  app.post(
    '/api/objects/upload',
    { schema: { ...tag, body: UploadUrlBody, response: { 200: UploadUrlView } } },
    async (req) => {
      const ctx = requireUser(req);
      authorize(ctx, 'documents:upload');
      const key = newUploadKey(ctx.organizationId);
      const uploadURL = await storage.createUploadUrl(key, {
        maxBytes: UPLOAD_MAX_BYTES,
        expiresInSeconds: UPLOAD_URL_TTL_SECONDS,
        size: req.body?.size,
      });
      return { uploadURL, expiresAt: new Date(Date.now() + UPLOAD_URL_TTL_SECONDS * 1000).toISOString() };
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
          const declared = Number(req.headers['content-length'] ?? 0);
          if (declared > max) throw tooLarge();
          if (await local.head(key)) {
            throw new AppError(409, 'conflict', 'This upload link has already been used. Start the upload again.');
          }
          try {
            const size = await local.writeStream(key, req.raw, max);
            return reply.code(200).header('ETag', `"${size}"`).send({ key, size });
          } catch (err) {
            if (err instanceof TooLargeError) {
              // Stop reading the rest of the body: the answer is final.
              reply.header('Connection', 'close');
              throw tooLarge();
            }
            if (err instanceof StorageKeyError)
              throw forbiddenLink('The upload link is invalid. Start the upload again.');
            throw err;
          }
        },
      );
  });
}
