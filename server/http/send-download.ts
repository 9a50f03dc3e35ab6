import type { FastifyReply } from 'fastify';
import type { Download } from '../download';

/** Sends a service's file as the response: its type, disposition, caching and body. */
export function sendDownload(reply: FastifyReply, file: Download): FastifyReply {
  reply.header('Content-Type', file.contentType);
  if (file.size !== undefined) reply.header('Content-Length', String(file.size));
  if (file.disposition !== undefined) reply.header('Content-Disposition', file.disposition);
  if (file.nosniff) reply.header('X-Content-Type-Options', 'nosniff');
  return reply.header('Cache-Control', file.cacheControl).send(file.body);
}
