import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, BodyRefused, RateLimited } from '../errors';

type Issue = { keyword: string; instancePath: string; message?: string; params: Record<string, unknown> };

/** Turns one zod issue into a sentence: the specification's own messages pass through; zod's generic ones name the field. */
function describe(issue: Issue, where: string): string {
  const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const subject = field || (where === 'body' ? 'Request body' : where);
  const message = issue.message ?? 'Invalid value';
  if (issue.keyword === 'invalid_type') {
    // A schema's own sentence ('Tags must be a list of text') beats the generic one.
    if (!message.startsWith('Invalid input')) return message;
    if (/received undefined/.test(message)) return `${subject} is required`;
    return `${subject} must be ${String(issue.params.expected ?? 'of another type')}`;
  }
  if (message.startsWith('Invalid') && field && !message.includes(field)) return `${field}: ${message}`;
  return message;
}

/** A refusal that says when to try again in its details (`{retryAfterSeconds}`) sends it as Retry-After too. */
function retryAfterOf(details: unknown): number | undefined {
  const wait = (details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof wait === 'number' && wait > 0 ? wait : undefined;
}

/** ARCHITECTURE §4: every failure leaves as `{error, code, details?}`; internals (stacks, SQL) never do. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      const wait = err instanceof RateLimited ? err.retryAfterSeconds : retryAfterOf(err.details);
      if (wait !== undefined) reply.header('Retry-After', String(Math.max(1, Math.ceil(wait))));
      if (err instanceof BodyRefused) reply.header('Connection', 'close');
      return reply.code(err.status).send({ error: err.message, code: err.code, details: err.details });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'body';
      const issues = err.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: describe(v as unknown as Issue, where),
      }));
      return reply.code(400).send({
        error: issues
          .map((i) => i.message)
          .filter((m, i, all) => all.indexOf(m) === i)
          .join('. '),
        code: 'validation_error',
        details: { in: where, issues },
      });
    }
    if (isResponseSerializationError(err as never)) {
      req.log.error({ err }, 'response did not match its schema');
      return reply
        .code(500)
        .send({ error: 'Something went wrong on our side. Please try again.', code: 'internal_error' });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply.code(429).send({ error: 'Too many requests. Wait a minute and try again.', code: 'rate_limited' });
    }
    if (status === 413 || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = req.routeOptions.bodyLimit ?? req.server.initialConfig.bodyLimit ?? 1024 * 1024;
      const mb = Math.round((limit / (1024 * 1024)) * 10) / 10;
      return reply.code(413).send({
        error: `The request is larger than the ${mb} MB this call accepts. Split it into smaller parts.`,
        code: 'payload_too_large',
      });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.code(400).send({ error: 'The request body is not valid JSON.', code: 'invalid_json' });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({
        error: 'Send the request body as JSON (Content-Type: application/json).',
        code: 'unsupported_media_type',
      });
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: err.message || 'Bad request', code: 'bad_request' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply
      .code(500)
      .send({ error: 'Something went wrong on our side. Please try again.', code: 'internal_error' });
  });
}
