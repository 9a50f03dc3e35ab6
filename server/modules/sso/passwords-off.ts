import { eq } from 'drizzle-orm';
import { organizations } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';

/**
 * Whether the organization requires SSO for this person: then passwords neither sign in nor get reset, except for
 * the organization's break-glass admin (the way back in when the identity provider is down or misconfigured).
 */
export async function passwordsOff(db: DbOrTx, user: { id: string; organizationId: string }): Promise<boolean> {
  const [org] = await db
    .select({ sso: organizations.ssoConfig })
    .from(organizations)
    .where(eq(organizations.id, user.organizationId));
  return !!org?.sso?.ssoRequired && org.sso.breakGlassUserId !== user.id;
}

export const ssoRequired = () =>
  new AppError(
    403,
    'sso_required',
    'Your organization signs in with SSO. Use “Sign in with SSO” on the login page with your work e-mail address.',
  );
