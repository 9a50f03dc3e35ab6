import { z } from 'zod';

/** The schema URNs of SCIM 2.0 (RFC 7643 §8.7, RFC 7644 §3.14 and §3.5.2). */
export const SCIM_SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** The most resources one list page holds (advertised as `filter.maxResults`). */
export const SCIM_MAX_RESULTS = 200;

/** A bearer token for the SCIM endpoints starts with this, so it is told apart from an API token at a glance. */
export const SCIM_TOKEN_PREFIX = 'vscim_';

/**
 * SCIM booleans as clients send them: JSON booleans, and the strings "True"/"False" Microsoft Entra ID sends in
 * PATCH values.
 */
export const ScimBoolean = z.union(
  [
    z.boolean(),
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(['true', 'false']))
      .transform((v) => v === 'true'),
  ],
  { message: 'must be true or false' },
);

// PostgreSQL text cannot hold NUL; other control characters have no place in a name either.
const hasControlCharacter = (v: string) => [...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
const text = (max: number, what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${what} is required` : `${what} must be text`) })
    .trim()
    .max(max, `${what} must be at most ${max} characters`)
    .refine((v) => !hasControlCharacter(v), `${what} cannot contain control characters`);

const schemasIncluding = (urn: string) =>
  z
    .array(z.string(), { message: `schemas must be a list holding "${urn}"` })
    .refine((list) => list.some((s) => s.toLowerCase() === urn.toLowerCase()), `schemas must hold "${urn}"`);

export const ScimUserName = text(254, 'userName').pipe(z.string().min(1, 'userName is required'));
export const ScimExternalId = text(255, 'externalId');
export const ScimNamePart = (what: string) => text(80, what);

export const ScimEmail = z.looseObject({
  value: z.string({ message: 'emails.value must be text' }).trim().max(254, 'emails.value is too long'),
  primary: ScimBoolean.optional(),
  type: z.string().optional(),
});
export type ScimEmail = z.infer<typeof ScimEmail>;

export const ScimName = z.looseObject({
  givenName: ScimNamePart('name.givenName').nullish(),
  familyName: ScimNamePart('name.familyName').nullish(),
});

/**
 * A User as POST and PUT send it (RFC 7643 §4.1). Attributes Verity does not keep (displayName, phoneNumbers, the
 * enterprise extension, a password) are accepted and ignored: identity providers send their whole mapping.
 */
export const ScimUserBody = z.looseObject({
  schemas: schemasIncluding(SCIM_SCHEMA.user),
  userName: ScimUserName,
  externalId: ScimExternalId.nullish(),
  name: ScimName.nullish(),
  emails: z.array(ScimEmail, { message: 'emails must be a list' }).max(20, 'At most 20 emails').nullish(),
  active: ScimBoolean.optional(),
});
export type ScimUserBody = z.infer<typeof ScimUserBody>;

export const ScimDisplayName = text(200, 'displayName').pipe(z.string().min(1, 'displayName is required'));

export const ScimMember = z.looseObject({
  value: z.string({ message: 'members.value must be a user id' }).trim().max(100, 'members.value is too long'),
});

export const ScimGroupBody = z.looseObject({
  schemas: schemasIncluding(SCIM_SCHEMA.group),
  displayName: ScimDisplayName,
  externalId: ScimExternalId.nullish(),
  members: z.array(ScimMember, { message: 'members must be a list' }).max(10_000, 'At most 10,000 members').nullish(),
});
export type ScimGroupBody = z.infer<typeof ScimGroupBody>;

/** One PATCH operation (RFC 7644 §3.5.2); `op` is read in any case ("Replace", as Entra ID sends it). */
export const ScimPatchOperation = z.looseObject({
  op: z
    .string({ message: 'op must be add, replace or remove' })
    .toLowerCase()
    .pipe(z.enum(['add', 'replace', 'remove'], { message: 'op must be add, replace or remove' })),
  path: z.string({ message: 'path must be text' }).trim().max(500, 'path is too long').optional(),
  value: z.unknown().optional(),
});
export type ScimPatchOperation = z.infer<typeof ScimPatchOperation>;

export const ScimPatchBody = z.looseObject({
  schemas: schemasIncluding(SCIM_SCHEMA.patchOp),
  Operations: z
    .array(ScimPatchOperation, { message: 'Operations must be a list' })
    .min(1, 'Operations must hold at least one operation')
    .max(1000, 'At most 1,000 operations'),
});
export type ScimPatchBody = z.infer<typeof ScimPatchBody>;

const index = (what: string) =>
  z
    .string()
    .regex(/^-?\d{1,9}$/, `${what} must be a whole number`)
    .transform(Number)
    .optional();

/** A list's query (RFC 7644 §3.4.2): 1-based startIndex, count capped at SCIM_MAX_RESULTS. */
export const ScimListQuery = z.looseObject({
  filter: z.string().max(1000, 'filter is too long').optional(),
  startIndex: index('startIndex').transform((v) => Math.max(1, v ?? 1)),
  count: index('count').transform((v) => Math.min(SCIM_MAX_RESULTS, Math.max(0, v ?? 100))),
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});
export type ScimListQuery = z.infer<typeof ScimListQuery>;

export const ScimGetQuery = z.looseObject({
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});
