import type { ZodType } from 'zod';
import { Email } from '../../../common/schemas/auth';
import {
  SCIM_SCHEMA,
  ScimBoolean,
  ScimEmail,
  ScimExternalId,
  ScimNamePart,
  ScimUserName,
  type ScimPatchOperation,
} from '../../../common/schemas/scim';
import { invalidValue, zodDetail } from './errors';
import { invalidPath, isEnterpriseExtension, noTarget, normalizePath, pathLessEntries, readOnly } from './paths';
import { z } from 'zod';

/** What SCIM can change of a user. */
export type UserState = {
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  externalId: string | null;
  active: boolean;
};

/**
 * Attributes of the core User (and the enterprise extension) that identity providers send with their default
 * mappings but Verity does not keep: accepted and ignored, so a sync of a display name or a phone number does not
 * fail the whole PATCH.
 */
const IGNORED = new Set([
  'displayname',
  'nickname',
  'profileurl',
  'title',
  'usertype',
  'preferredlanguage',
  'locale',
  'timezone',
  'password',
  'name.formatted',
  'name.middlename',
  'name.honorificprefix',
  'name.honorificsuffix',
  'schemas',
]);
const IGNORED_MULTI = ['phonenumbers', 'addresses', 'ims', 'photos', 'entitlements', 'roles', 'x509certificates'];
const READ_ONLY = new Set(['id', 'meta', 'groups']);

/** A patch value that does not fit its attribute: 400 invalidValue naming the attribute. */
function parse<T>(schema: ZodType<T>, value: unknown, path: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const detail = zodDetail(result.error);
  throw invalidValue(detail.toLowerCase().startsWith(path.split(/[.[]/)[0] ?? path) ? detail : `${path}: ${detail}`);
}

/** The one e-mail address Verity keeps: the primary one of a SCIM `emails` list, or its first. */
export function emailFromList(emails: ScimEmail[] | null | undefined): string | null {
  if (!emails || emails.length === 0) return null;
  const chosen = emails.find((e) => e.primary === true) ?? emails[0];
  return chosen ? parseEmail(chosen.value) : null;
}

export function parseEmail(value: unknown): string {
  const result = Email.safeParse(value);
  if (!result.success) throw invalidValue(`"${String(value)}" is not an e-mail address`);
  return result.data;
}

const required = (what: string) => invalidValue(`${what} is required and cannot be removed`);

/** Sets (add or replace) or clears (remove) one attribute, addressed by its normalized path. */
function applyOne(state: UserState, op: ScimPatchOperation['op'], path: string, value: unknown): UserState {
  const remove = op === 'remove';
  if (READ_ONLY.has(path) || path.startsWith('meta.') || path.startsWith('groups')) throw readOnly(path);
  if (IGNORED.has(path) || isEnterpriseExtension(path) || IGNORED_MULTI.some((a) => path.startsWith(a))) {
    return state;
  }
  switch (path) {
    case 'active':
      if (remove) throw required('active');
      return { ...state, active: parse(ScimBoolean, value, path) };
    case 'username':
      if (remove) throw required('userName');
      return { ...state, username: parse(ScimUserName, value, path) };
    case 'externalid':
      return { ...state, externalId: remove ? null : parse(ScimExternalId.nullable(), value, path) || null };
    case 'name.givenname':
      return {
        ...state,
        firstName: remove ? null : parse(ScimNamePart('name.givenName').nullable(), value, path) || null,
      };
    case 'name.familyname':
      return {
        ...state,
        lastName: remove ? null : parse(ScimNamePart('name.familyName').nullable(), value, path) || null,
      };
    case 'name': {
      if (remove) return { ...state, firstName: null, lastName: null };
      // Sub-attributes not in the value stay as they are (RFC 7644 §3.5.2.3).
      return Object.entries(
        parse(z.record(z.string(), z.unknown(), { message: 'name must be an object' }), value, path),
      ).reduce((s, [key, v]) => applyOne(s, op, `name.${key.toLowerCase()}`, v), state);
    }
    case 'emails': {
      if (remove) throw required('An e-mail address');
      const email = emailFromList(parse(z.array(ScimEmail), Array.isArray(value) ? value : [value], path));
      if (!email) throw required('An e-mail address');
      return { ...state, email };
    }
  }
  // emails[type eq "work"].value (Entra ID), emails[primary eq true].value, emails.value: the one address.
  if (/^emails(\[[^\]]*\])?\.value$/.test(path)) {
    if (remove) throw required('An e-mail address');
    return { ...state, email: parseEmail(value) };
  }
  // The other sub-attributes of an e-mail (type, primary, display): Verity keeps one work address.
  if (/^emails(\[[^\]]*\])?\.(type|primary|display)$/.test(path)) return state;
  throw invalidPath(path);
}

/**
 * Applies a PatchOp's operations in order (RFC 7644 §3.5.2) to what SCIM can change of a user. Supports add, replace
 * and remove on active, userName, externalId, name and its parts, and the e-mail; path-less add and replace with an
 * object of attributes. Any other path is a 400 invalidPath; read-only ones (id, meta, groups) 400 mutability.
 */
export function applyUserPatch(state: UserState, operations: ScimPatchOperation[]): UserState {
  return operations.reduce((current, operation) => {
    if (operation.path === undefined || operation.path === '') {
      if (operation.op === 'remove') throw noTarget();
      return pathLessEntries(operation.value).reduce((s, [key, value]) => {
        const path = normalizePath(key, SCIM_SCHEMA.user);
        return applyOne(s, operation.op, path, value);
      }, current);
    }
    return applyOne(current, operation.op, normalizePath(operation.path, SCIM_SCHEMA.user), operation.value);
  }, state);
}
