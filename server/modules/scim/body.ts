import type { FastifyInstance } from 'fastify';
import { ScimError } from './errors';
import { addStrictJsonParser } from '../../http/json-body';

/**
 * SCIM clients send `application/scim+json` (RFC 7644 §3.1), some plain JSON: both are read with the API's rules
 * (UTF-8 only, no NUL characters, Fastify's prototype-poisoning checks), answered as SCIM errors. The application/json
 * parser is replaced only inside this plugin.
 */
export function registerScimJsonParser(app: FastifyInstance): void {
  addStrictJsonParser(app, ['application/json', 'application/scim+json'], {
    notUtf8: () => new ScimError(400, 'The request body is not valid UTF-8.', 'invalidSyntax'),
    notJson: () => new ScimError(400, 'The request body is not valid JSON.', 'invalidSyntax'),
    holdsNul: () => new ScimError(400, 'Text cannot contain NUL (\\u0000) characters.', 'invalidValue'),
  });
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
