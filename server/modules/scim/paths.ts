import { ScimError } from './errors';
import { SCIM_SCHEMA } from '../../../common/schemas/scim';

/**
 * A PATCH path in lower case, without the core schema's URN (`urn:…:core:2.0:User:name.givenName` is
 * `name.givenname`): attribute names are case-insensitive (RFC 7643 §2.1).
 */
export function normalizePath(path: string, core: string): string {
  const lower = path.trim().toLowerCase();
  const prefix = `${core.toLowerCase()}:`;
  return lower.startsWith(prefix) ? lower.slice(prefix.length) : lower;
}

/** Whether a path names the enterprise User extension (department, manager…), which Verity does not keep. */
export function isEnterpriseExtension(path: string): boolean {
  return path.startsWith(SCIM_SCHEMA.enterpriseUser.toLowerCase());
}

/**
 * A path-less add or replace carries its attributes in an object (`{"op": "replace", "value": {"active": false}}`,
 * as Okta sends it): each key is applied as if it were the path. Dotted keys (`name.givenName`) stay as they are.
 */
export function pathLessEntries(value: unknown): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ScimError(400, 'An operation without a path needs an object of attributes as its value', 'invalidValue');
  }
  return Object.entries(value as Record<string, unknown>);
}

export const invalidPath = (path: string) =>
  new ScimError(400, `The path "${path}" is not an attribute Verity can change`, 'invalidPath');

export const readOnly = (path: string) => new ScimError(400, `The attribute "${path}" is read-only`, 'mutability');

/** RFC 7644 §3.5.2.2: a remove must say what it removes. */
export const noTarget = () => new ScimError(400, 'A remove operation needs a path', 'noTarget');
