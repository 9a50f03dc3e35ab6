import { ScimError } from './errors';
import { SCIM_SCHEMA } from '../../../common/schemas/scim';

/** One `attribute eq "value"` of a filter; `attribute` in lower case, its schema URN removed. */
export type Comparison = { attribute: string; value: string };

/**
 * Reads the filters identity providers send when they look a resource up (RFC 7644 §3.4.2.2): comparisons
 * `attribute eq "value"`, joined by `and`, on the attributes `allowed` names (lower case). Anything else (other
 * operators, `or`, `not`, brackets, unknown attributes) is a 400 invalidFilter naming what is supported, rather
 * than a filter silently ignored, which would hand the client the wrong resources. So is a value holding NUL.
 */
export function parseFilter(filter: string, allowed: readonly string[]): Comparison[] {
  const refuse = (why: string) =>
    new ScimError(
      400,
      `${why} Verity supports filters of the form attribute eq "value", joined by and, on: ${allowed.join(', ')}.`,
      'invalidFilter',
    );
  const comparisons: Comparison[] = [];
  // attribute path, operator, then a JSON string, true, false or null.
  const term = /^\s*([A-Za-z][\w:.$-]*)\s+([A-Za-z]+)\s+("(?:[^"\\]|\\.)*"|true|false|null)\s*/;
  let rest = filter;
  for (;;) {
    const match = term.exec(rest);
    if (!match) throw refuse('The filter could not be read.');
    const [whole, path = '', op = '', literal = ''] = match;
    if (op.toLowerCase() !== 'eq') throw refuse(`The operator "${op}" is not supported.`);
    const attribute = stripSchema(path).toLowerCase();
    if (!allowed.includes(attribute)) throw refuse(`Filtering on "${path}" is not supported.`);
    if (!literal.startsWith('"')) throw refuse(`"${path}" is compared with text in quotes.`);
    let value: string;
    try {
      value = JSON.parse(literal) as string;
    } catch {
      throw refuse('A quoted value in the filter is not valid.');
    }
    // The value is compared in SQL, and PostgreSQL text cannot hold NUL: refused here rather than failing there (500).
    if (value.includes('\u0000')) throw refuse('A value in the filter cannot contain NUL (\\u0000) characters.');
    comparisons.push({ attribute, value });
    rest = rest.slice(whole.length);
    if (rest.length === 0) return comparisons;
    const and = /^and\s+/i.exec(rest);
    if (!and) throw refuse('The filter could not be read.');
    rest = rest.slice(and[0].length);
  }
}

/** `urn:ietf:params:scim:schemas:core:2.0:User:userName` is `userName`. */
function stripSchema(path: string): string {
  for (const urn of [SCIM_SCHEMA.user, SCIM_SCHEMA.group]) {
    if (path.toLowerCase().startsWith(`${urn.toLowerCase()}:`)) return path.slice(urn.length + 1);
  }
  return path;
}
