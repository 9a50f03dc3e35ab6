import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UploadUrlBody, UploadUrlView } from '../../../common/schemas/documents';
import { issueUploadLink } from './uploads';
import { receiveLocalUpload } from './local-upload';

const tag = { tags: ['documents'] };

const LocalUploadQuery = z.object({
  expires: z.coerce.number().int(),
  max: z.coerce.number().int().min(0),
  sig: z.string().min(1).max(200),
});

export async function objectRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { deps } = root;
  const { storage } = deps;

  app.post(
    '/api/objects/upload',
    {
      config: { access: 'documents:upload' },
      schema: { ...tag, body: UploadUrlBody, response: { 200: UploadUrlView } },
    },
    async (req) => issueUploadLink(req.user, storage, deps.config.uploads, req.body?.size),
  );

  // Only a driver whose upload URLs point at Verity itself (the local one) needs the upload target.
  if (!storage.writeStream) return;

  // The body is streamed to disk rather than parsed, whatever its content type.
  await app.register(async (child) => {
    child.removeAllContentTypeParsers();
    child.addContentTypeParser('*', (_req, _payload, done) => done(null));
    child
      .withTypeProvider<ZodTypeProvider>()
      .put(
        '/api/objects/local/*',
        { config: { access: 'public' }, schema: { hide: true, querystring: LocalUploadQuery } },
        async (req, reply) => {
          const key = (req.params as { '*': string })['*'];
          const declaredBytes = Number(req.headers['content-length'] ?? 0);
          const stored = await receiveLocalUpload(deps, { ...req.query, key, declaredBytes }, req.raw);
          return reply.code(200).header('ETag', `"${stored.sha256}"`).send({ key, size: stored.size });
        },
      );
  });
}
