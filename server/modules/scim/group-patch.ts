import { z, type ZodType } from 'zod';
import {
  SCIM_SCHEMA,
  ScimDisplayName,
  ScimExternalId,
  ScimMember,
  type ScimPatchOperation,
} from '../../../common/schemas/scim';
import { invalidValue, ScimError, zodDetail } from './errors';
import { invalidPath, noTarget, normalizePath, pathLessEntries, readOnly } from './paths';

/** What SCIM can change of a group. */
export type GroupState = { displayName: string; externalId: string | null; members: Set<string> };

/** A patch value that does not fit its attribute: 400 invalidValue naming the attribute. */
function parse<T>(schema: ZodType<T>, value: unknown, path: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const detail = zodDetail(result.error);
  throw invalidValue(detail.toLowerCase().startsWith(path.split(/[.[]/)[0] ?? path) ? detail : `${path}: ${detail}`);
}

/** Member ids of a value: a list of `{value}` (or one such object, as some clients send it). */
function memberIds(value: unknown): string[] {
  const list = parse(
    z.array(ScimMember, { message: 'members must be a list of {"value": id}' }),
    [value].flat(),
    'members',
  );
  // Ids are UUIDs, stored in lower case.
  return list.map((m) => m.value.toLowerCase());
}

/** `members[value eq "id"]`: the one member a remove names (Okta and Entra ID send this form). */
function memberFilter(path: string): string | null {
  const match = /^members\[\s*value\s+eq\s+("(?:[^"\\]|\\.)*")\s*\]$/i.exec(path);
  if (!match?.[1]) return null;
  try {
    return (JSON.parse(match[1]) as string).toLowerCase();
  } catch {
    throw new ScimError(400, `The filter in "${path}" is not valid`, 'invalidFilter');
  }
}

function applyOne(state: GroupState, op: ScimPatchOperation['op'], path: string, value: unknown): GroupState {
  if (path === 'id' || path === 'meta' || path.startsWith('meta.') || path === 'schemas') {
    // Okta's path-less replace repeats the group's id next to its new name: nothing to change there.
    if (op !== 'remove' && (path === 'id' || path === 'schemas')) return state;
    throw readOnly(path);
  }
  switch (path) {
    case 'displayname':
      if (op === 'remove') throw invalidValue('displayName is required and cannot be removed');
      return { ...state, displayName: parse(ScimDisplayName, value, path) };
    case 'externalid':
      return { ...state, externalId: op === 'remove' ? null : parse(ScimExternalId.nullable(), value, path) || null };
    case 'members': {
      if (op === 'replace') return { ...state, members: new Set(value == null ? [] : memberIds(value)) };
      if (op === 'add') return { ...state, members: new Set([...state.members, ...memberIds(value)]) };
      // Entra ID removes members with a value list; without one, every member goes (RFC 7644 §3.5.2.2).
      if (value === undefined || value === null) return { ...state, members: new Set() };
      const gone = new Set(memberIds(value));
      return { ...state, members: new Set([...state.members].filter((m) => !gone.has(m))) };
    }
  }
  const member = /^members\[/i.test(path) ? memberFilter(path) : null;
  if (member !== null) {
    if (op !== 'remove') throw invalidPath(path);
    return { ...state, members: new Set([...state.members].filter((m) => m !== member)) };
  }
  throw invalidPath(path);
}

/**
 * Applies a PatchOp to a group: add/remove/replace of members (a value list, or `members[value eq "id"]` for one
 * removal), replace of displayName and externalId, and path-less add or replace with an object of those.
 */
export function applyGroupPatch(state: GroupState, operations: ScimPatchOperation[]): GroupState {
  return operations.reduce((current, operation) => {
    if (operation.path === undefined || operation.path === '') {
      if (operation.op === 'remove') throw noTarget();
      return pathLessEntries(operation.value).reduce(
        (s, [key, value]) => applyOne(s, operation.op, normalizePath(key, SCIM_SCHEMA.group), value),
        current,
      );
    }
    // A member filter is read as written (its quoted id is not an attribute name).
    const raw = operation.path.trim();
    const path = /^members\[/i.test(raw) ? raw : normalizePath(raw, SCIM_SCHEMA.group);
    return applyOne(current, operation.op, path, operation.value);
  }, state);
}
