import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import { AppError } from '../../errors';
import { isUniqueViolation } from '../auth/unique-user';
import { SCIM_SCHEMA } from '../../../common/schemas/scim';

/** RFC 7644 §3.12's `scimType` values Verity sends. */
export type ScimType =
  'invalidFilter' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue' | 'mutability' | 'uniqueness';

/** A refusal in the SCIM Error schema: its HTTP status, an optional scimType and a sentence. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly scimType?: ScimType,
  ) {
    super(message);
    this.name = 'ScimError';
  }
}

export const scimNotFound = (what: 'User' | 'Group', id: string) => new ScimError(404, `${what} ${id} not found`);
export const invalidValue = (message: string) => new ScimError(400, message, 'invalidValue');

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

export function sendScimError(reply: FastifyReply, err: ScimError) {
  if (err.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="Verity SCIM"');
  return reply
    .code(err.status)
    .type(SCIM_CONTENT_TYPE)
    .send({
      schemas: [SCIM_SCHEMA.error],
      status: String(err.status),
      ...(err.scimType && { scimType: err.scimType }),
      detail: err.message,
    });
}

/** The first problem zod found, as a sentence naming the attribute. */
export function zodDetail(err: ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'The request is not valid';
  const field = issue.path.join('.');
  return field && !issue.message.startsWith(field.split('.')[0] ?? field)
    ? `${field}: ${issue.message}`
    : issue.message;
}

/** A zod refusal of a body: a wrong `schemas` list is the message's structure (invalidSyntax), anything else a value. */
export function fromZod(err: ZodError): ScimError {
  const syntax = err.issues.some((i) => i.path[0] === 'schemas' || i.path[0] === 'Operations' || i.path.length === 0);
  return new ScimError(400, zodDetail(err), syntax ? 'invalidSyntax' : 'invalidValue');
}

/** Everything that can go wrong under /scim/v2, turned into the SCIM Error schema (RFC 7644 §3.12). */
export function toScimError(err: FastifyError | Error): ScimError | null {
  if (err instanceof ScimError) return err;
  if (err instanceof ZodError) return fromZod(err);
  if (err instanceof AppError) {
    return new ScimError(err.status, err.message, err.status === 409 ? 'uniqueness' : undefined);
  }
  if (isUniqueViolation(err)) return new ScimError(409, 'That value is already taken.', 'uniqueness');
  const e = err as FastifyError;
  if (
    e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    e instanceof SyntaxError
  ) {
    return new ScimError(400, 'The request body is not valid JSON.', 'invalidSyntax');
  }
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new ScimError(415, 'Send the request body as JSON (Content-Type: application/scim+json).');
  }
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || e.statusCode === 413) {
    return new ScimError(413, 'The request body is too large. Send fewer members or operations at once.');
  }
  if (e.statusCode === 429) return new ScimError(429, 'Too many requests. Wait a minute and try again.');
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) {
    return new ScimError(e.statusCode, e.message || 'Bad request');
  }
  return null;
}

/** Installs the SCIM error and not-found answers for the plugin scope it is called in. */
export function registerScimErrors(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const scim = toScimError(err);
    if (scim) return sendScimError(reply, scim);
    req.log.error({ err }, 'unhandled SCIM error');
    return sendScimError(reply, new ScimError(500, 'Something went wrong on our side. Please try again.'));
  });
  app.setNotFoundHandler((req, reply) =>
    sendScimError(reply, new ScimError(404, `${req.method} ${req.url.split('?')[0]} is not a SCIM endpoint`)),
  );
}
