import { eq } from 'drizzle-orm';
import { organizations } from '../../db/schema';
import { inTransaction } from '../../db/client';
import { badRequest, notFound } from '../../errors';
import type { UserCtx } from '../../context';
import { seal } from '../../secret';
import { audit } from '../audit/service';
import type { SsoSettingsView, UpdateSsoBody } from '../../../common/schemas/admin';

/** The seal's purpose: a key of its own, so no other sealed value of Verity opens with it. */
export const SSO_SECRET_PURPOSE = 'sso-client-secret';

type SsoConfig = NonNullable<(typeof organizations.$inferSelect)['ssoConfig']>;

/** Never the secret, sealed or not: only whether one is stored. */
export function presentSso(config: SsoConfig | null): SsoSettingsView {
  return {
    issuer: config?.issuer ?? null,
    clientId: config?.clientId ?? null,
    hasClientSecret: !!config?.clientSecretSealed,
  };
}

export async function getSsoSettings(ctx: UserCtx): Promise<SsoSettingsView> {
  const [org] = await ctx.db
    .select({ sso: organizations.ssoConfig })
    .from(organizations)
    .where(eq(organizations.id, ctx.organizationId));
  if (!org) throw notFound('Organization');
  return presentSso(org.sso);
}

/**
 * Stores the OIDC issuer and client id; a new client secret is sealed with the server secret (bound to this
 * organization), and none keeps the one already stored.
 */
export async function saveSsoSettings(
  ctx: UserCtx,
  serverSecret: string | undefined,
  input: UpdateSsoBody,
): Promise<SsoSettingsView> {
  // main.ts always sets one (SESSION_SECRET or DATA_DIR/secret); without it nothing could be sealed.
  if (!serverSecret) throw new Error('SESSION_SECRET is needed to store SSO client secrets');
  return inTransaction(ctx.db, async (tx) => {
    const [org] = await tx
      .select({ sso: organizations.ssoConfig })
      .from(organizations)
      .where(eq(organizations.id, ctx.organizationId))
      .for('update');
    if (!org) throw notFound('Organization');
    const newSecret = input.clientSecret ? input.clientSecret : null;
    // A secret belongs to one identity provider: keeping it for another issuer would send it there.
    if (!newSecret && org.sso && org.sso.issuer !== input.issuer && org.sso.clientSecretSealed) {
      throw badRequest('Enter the client secret for the new issuer: the saved one belongs to the previous issuer.');
    }
    const next: SsoConfig = {
      issuer: input.issuer,
      clientId: input.clientId,
      clientSecretSealed: newSecret
        ? seal(serverSecret, SSO_SECRET_PURPOSE, newSecret, ctx.organizationId)
        : (org.sso?.clientSecretSealed ?? null),
    };
    await tx
      .update(organizations)
      .set({ ssoConfig: next, updatedAt: new Date() })
      .where(eq(organizations.id, ctx.organizationId));
    await audit({ ...ctx, db: tx }, 'sso_settings_updated', 'organization', ctx.organizationId, {
      issuer: next.issuer,
      clientId: next.clientId,
      clientSecret: newSecret ? 'replaced' : next.clientSecretSealed ? 'kept' : 'none',
    });
    return presentSso(next);
  });
}

/** Forgets the whole SSO configuration, secret included. */
export async function removeSsoSettings(ctx: UserCtx): Promise<SsoSettingsView> {
  return inTransaction(ctx.db, async (tx) => {
    const [org] = await tx
      .update(organizations)
      .set({ ssoConfig: null, updatedAt: new Date() })
      .where(eq(organizations.id, ctx.organizationId))
      .returning({ id: organizations.id });
    if (!org) throw notFound('Organization');
    await audit({ ...ctx, db: tx }, 'sso_settings_removed', 'organization', ctx.organizationId);
    return presentSso(null);
  });
}
