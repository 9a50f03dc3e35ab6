import type { scimGroups, users } from '../../db/schema';
import { SCIM_SCHEMA } from '../../../common/schemas/scim';

type UserRow = typeof users.$inferSelect;
type GroupRow = typeof scimGroups.$inferSelect;
export type GroupRef = { id: string; displayName: string };
export type MemberRef = { id: string; username: string };

/**
 * A Verity user as a SCIM core User (RFC 7643 §4.1). Only what Verity keeps: no password, role or internal columns.
 * A user removed by an admin or deactivated through SCIM is `active: false`.
 */
export function presentScimUser(user: UserRow, groups: GroupRef[], baseUrl: string) {
  const given = user.firstName ?? undefined;
  const family = user.lastName ?? undefined;
  const formatted = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return {
    schemas: [SCIM_SCHEMA.user],
    id: user.id,
    ...(user.scimExternalId !== null && { externalId: user.scimExternalId }),
    userName: user.scimUserName ?? user.username,
    name: {
      ...(formatted && { formatted }),
      ...(given !== undefined && { givenName: given }),
      ...(family !== undefined && { familyName: family }),
    },
    displayName: formatted || (user.scimUserName ?? user.username),
    emails: [{ value: user.email, primary: true, type: 'work' }],
    active: user.deletedAt === null,
    groups: groups.map((g) => ({ value: g.id, display: g.displayName, $ref: `${baseUrl}/Groups/${g.id}` })),
    meta: {
      resourceType: 'User',
      created: user.createdAt.toISOString(),
      lastModified: user.updatedAt.toISOString(),
      location: `${baseUrl}/Users/${user.id}`,
    },
  };
}

/** A SCIM group with its members (left out when the client asked `excludedAttributes=members`). */
export function presentScimGroup(group: GroupRow, members: MemberRef[] | null, baseUrl: string) {
  return {
    schemas: [SCIM_SCHEMA.group],
    id: group.id,
    ...(group.externalId !== null && { externalId: group.externalId }),
    displayName: group.displayName,
    ...(members !== null && {
      members: members.map((m) => ({ value: m.id, display: m.username, $ref: `${baseUrl}/Users/${m.id}` })),
    }),
    meta: {
      resourceType: 'Group',
      created: group.createdAt.toISOString(),
      lastModified: group.updatedAt.toISOString(),
      location: `${baseUrl}/Groups/${group.id}`,
    },
  };
}

/** RFC 7644 §3.4.2: the page of resources with the total the filter matched. */
export function listResponse<T>(resources: T[], totalResults: number, startIndex: number) {
  return {
    schemas: [SCIM_SCHEMA.listResponse],
    totalResults,
    itemsPerPage: resources.length,
    startIndex,
    Resources: resources,
  };
}
