import { and, eq, isNull } from 'drizzle-orm';
import { organizations, users } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { isAdmin } from '../organizations/last-admin';

type Person = { id: string; organizationId: string };

/** The organization's SSO settings as stored, or null when it has none. */
export async function ssoOf(db: DbOrTx, organizationId: string) {
  const [org] = await db
    .select({ sso: organizations.ssoConfig })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return org?.sso ?? null;
}

/**
 * Whether the organization requires SSO for this person: then passwords neither sign in nor get reset, except for
 * the organization's break-glass admin (the way back in when the identity provider is down or misconfigured) while
 * that person is still an admin.
 */
export async function passwordsOff(db: DbOrTx, user: Person): Promise<boolean> {
  const sso = await ssoOf(db, user.organizationId);
  if (!sso?.ssoRequired) return false;
  if (sso.breakGlassUserId !== user.id) return true;
  const [row] = await db
    .select({ role: users.role })
    .from(users)
    .where(and(eq(users.id, user.id), isNull(users.deletedAt)));
  return !row || !isAdmin(row.role);
}

/**
 * Whether a reset link may give this person a password. Not when passwords are off for them; and not for an account
 * made by the identity provider (no password) while the organization signs in through it: whoever could change
 * such an account's address (a SCIM client) could otherwise mail themselves a password and skip the provider's
 * checks. Without SSO settings, a reset is the only way such an account gets in.
 */
export async function passwordResetAllowed(
  db: DbOrTx,
  user: Person & { passwordHash: string | null },
): Promise<boolean> {
  if (await passwordsOff(db, user)) return false;
  return user.passwordHash !== null || (await ssoOf(db, user.organizationId)) === null;
}

export const ssoRequired = () =>
  new AppError(
    403,
    'sso_required',
    'Your organization signs in with SSO. Use “Sign in with SSO” on the login page with your work e-mail address.',
  );
