import { users } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export type NewUser = {
  username: string;
  email: string;
  passwordHash: string;
  firstName?: string;
  lastName?: string;
};

/**
 * Adds the user a sign-up creates (the first admin of a new organization, or an invitee) to the organization. Names
 * left empty on the form are stored as null, so "no name" has one spelling.
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
    })
    .returning();
  if (!user) throw new Error('insert returned no user');
  return user;
}
