import type { FastifyInstance } from 'fastify';
import { ScimError } from './errors';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** True when a parsed JSON value holds a NUL character in any string or key (PostgreSQL text cannot). */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => k.includes('\u0000') || holdsNul(v));
  }
  return false;
}

/**
 * SCIM clients send `application/scim+json` (RFC 7644 §3.1), some plain JSON: both are read here with the same
 * rules as the API's JSON (UTF-8 only, no NUL characters, Fastify's prototype-poisoning checks). The application/json
 * parser is replaced only inside this plugin, so a refusal is a SCIM error.
 */
export function registerScimJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/json', 'application/scim+json'],
    { parseAs: 'buffer' },
    (req, body: Buffer, done) => {
      let text: string;
      try {
        text = utf8.decode(body);
      } catch {
        done(new ScimError(400, 'The request body is not valid UTF-8.', 'invalidSyntax'), undefined);
        return;
      }
      parseJson(req, text, (err, parsed) => {
        if (err) return done(new ScimError(400, 'The request body is not valid JSON.', 'invalidSyntax'), undefined);
        if (holdsNul(parsed)) {
          return done(new ScimError(400, 'Text cannot contain NUL (\\u0000) characters.', 'invalidValue'), undefined);
        }
        done(null, parsed);
      });
    },
  );
}

/**
 * The object with its keys renamed to the canonical spelling of `names` when they match in another case
 * (`username` → `userName`, `operations` → `Operations`): attribute names are case-insensitive (RFC 7643 §2.1).
 */
export function canonicalKeys(body: unknown, names: readonly string[]): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ScimError(400, 'The request body must be a JSON object.', 'invalidSyntax');
  }
  const canonical = new Map(names.map((n) => [n.toLowerCase(), n]));
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>).map(([key, value]) => [
      canonical.get(key.toLowerCase()) ?? key,
      value,
    ]),
  );
}
