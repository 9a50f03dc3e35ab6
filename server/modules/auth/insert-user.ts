import { users } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export type NewUser = {
  username: string;
  email: string;
  /** None for a person who signs in only through the identity provider (SSO or SCIM). */
  passwordHash: string | null;
  firstName?: string;
  lastName?: string;
  source?: 'local' | 'sso' | 'scim';
  ssoIssuer?: string;
  ssoSubject?: string;
  scimExternalId?: string;
};

/**
 * Adds a user to the organization: the first admin of a new organization, an invitee, or a person an identity
 * provider sends (SSO's first sign-in, SCIM). Names left empty are stored as null, so "no name" has one spelling.
 */
export async function insertUser(
  tx: DbOrTx,
  organizationId: string,
  input: NewUser,
  role: (typeof users.$inferInsert)['role'],
): Promise<typeof users.$inferSelect> {
  const [user] = await tx
    .insert(users)
    .values({
      organizationId,
      username: input.username,
      email: input.email,
      passwordHash: input.passwordHash,
      firstName: input.firstName || null,
      lastName: input.lastName || null,
      role,
      source: input.source ?? 'local',
      ssoIssuer: input.ssoIssuer ?? null,
      ssoSubject: input.ssoSubject ?? null,
      scimExternalId: input.scimExternalId ?? null,
    })
    .returning();
  if (!user) throw new Error('insert returned no user');
  return user;
}
