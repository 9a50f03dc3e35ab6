import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';

const utf8 = new TextDecoder('utf-8', { fatal: true });

const invalid = (message: string) => new AppError(400, 'invalid_json', message);

/** True when a parsed JSON value holds a NUL character in any string, key or value, at any depth. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => k.includes('\u0000') || holdsNul(v));
  }
  return false;
}

/** What a strict JSON parser answers for each kind of bad body (the API and SCIM each speak their own errors). */
export type JsonRefusals = {
  notUtf8: () => Error;
  /** A syntax error; without it Fastify's own 400 goes out. */
  notJson?: (err: Error) => Error;
  holdsNul: () => Error;
};

/**
 * JSON bodies, stricter than Fastify's default parser (whose prototype-poisoning checks still run): bytes that are
 * not UTF-8 are refused rather than silently turned into "�", and NUL characters are refused because PostgreSQL
 * text cannot hold them (they would otherwise fail deep in a query as a 500). Replaces the parser of these content
 * types in the plugin scope it is called in.
 */
export function addStrictJsonParser(app: FastifyInstance, contentTypes: string[], refuse: JsonRefusals): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(contentTypes, { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      done(refuse.notUtf8(), undefined);
      return;
    }
    parseJson(req, text, (err, parsed) => {
      if (err) return done(refuse.notJson ? refuse.notJson(err) : err, undefined);
      if (holdsNul(parsed)) return done(refuse.holdsNul(), undefined);
      done(null, parsed);
    });
  });
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  addStrictJsonParser(app, ['application/json'], {
    notUtf8: () => invalid('The request body is not valid UTF-8. Send JSON encoded as UTF-8.'),
    holdsNul: () => invalid('Text cannot contain NUL (\\u0000) characters. Remove them and try again.'),
  });
}

/**
 * The same rule for the address: a NUL in a path or query value (`%00`) would reach PostgreSQL the same way (a
 * search text, an id). Refused before anything else looks at the request.
 */
export function assertNoNulInUrl(url: string): void {
  if (/%00/i.test(url)) {
    throw new AppError(
      400,
      'invalid_input',
      'The address cannot contain NUL (%00) characters. Remove them and try again.',
    );
  }
}
