import { and, eq, isNull } from 'drizzle-orm';
import { organizations, ssoDomains, users } from '../../db/schema';
import { inTransaction, type DbOrTx } from '../../db/client';
import { AppError, badRequest, notFound } from '../../errors';
import type { UserCtx } from '../../context';
import { seal } from '../../secret';
import { audit } from '../audit/service';
import { forgetProviderConfig } from './provider';
import { issuerRefusal } from './outbound';
import type { AllowedIssuerHost } from '../../config';
import { domainClaimsOf, domainTaken, presentDomainClaim, replaceDomainClaims, verifyDomainClaim } from './domains';
import { isUniqueViolation } from '../auth/unique-user';
import { SSO_DEFAULTS, type SsoConfig, type SsoSettingsView, type UpdateSsoBody } from '../../../common/schemas/sso';

/** The seal's purpose: a key of its own, so no other sealed value of Verity opens with it. */
export const SSO_SECRET_PURPOSE = 'sso-client-secret';

export const SSO_CALLBACK_PATH = '/api/auth/sso/callback';

/** The stored configuration with every setting filled in (configurations saved before some existed lack them). */
export function withSsoDefaults(config: SsoConfig) {
  return {
    ...config,
    defaultRole: config.defaultRole ?? SSO_DEFAULTS.defaultRole,
    groupsClaim: config.groupsClaim ?? SSO_DEFAULTS.groupsClaim,
    groupRoles: config.groupRoles ?? SSO_DEFAULTS.groupRoles,
    ssoRequired: config.ssoRequired ?? SSO_DEFAULTS.ssoRequired,
    breakGlassUserId: config.breakGlassUserId ?? SSO_DEFAULTS.breakGlassUserId,
  };
}

type DomainClaim = Parameters<typeof presentDomainClaim>[0];

/** Never the secret, sealed or not: only whether one is stored. */
export function presentSso(config: SsoConfig | null, claims: DomainClaim[], publicUrl: string): SsoSettingsView {
  const full = config ? withSsoDefaults(config) : null;
  return {
    issuer: full?.issuer ?? null,
    clientId: full?.clientId ?? null,
    hasClientSecret: !!full?.clientSecretSealed,
    domains: claims.map((c) => c.domain),
    domainClaims: claims.map(presentDomainClaim),
    defaultRole: full?.defaultRole ?? SSO_DEFAULTS.defaultRole,
    groupsClaim: full?.groupsClaim ?? SSO_DEFAULTS.groupsClaim,
    groupRoles: full?.groupRoles ?? SSO_DEFAULTS.groupRoles,
    ssoRequired: full?.ssoRequired ?? SSO_DEFAULTS.ssoRequired,
    breakGlassUserId: full?.breakGlassUserId ?? SSO_DEFAULTS.breakGlassUserId,
    redirectUri: `${publicUrl}${SSO_CALLBACK_PATH}`,
    scimBaseUrl: `${publicUrl}/scim/v2`,
  };
}

export async function getSsoSettings(ctx: UserCtx, publicUrl: string): Promise<SsoSettingsView> {
  const [org] = await ctx.db
    .select({ sso: organizations.ssoConfig })
    .from(organizations)
    .where(eq(organizations.id, ctx.organizationId));
  if (!org) throw notFound('Organization');
  return presentSso(org.sso, await domainClaimsOf(ctx.db, ctx.organizationId), publicUrl);
}

const fieldError = (field: string, message: string) =>
  badRequest(message, { in: 'body', issues: [{ field, message }] });

/**
 * The break-glass admin signs in with a password while everyone else must use SSO, so it has to be a live admin of
 * this organization who has a password; otherwise requiring SSO could lock every admin out.
 */
async function assertBreakGlassAdmin(db: DbOrTx, organizationId: string, userId: string): Promise<void> {
  const [user] = await db
    .select({ role: users.role, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organizationId, organizationId), isNull(users.deletedAt)));
  if (!user || (user.role !== 'admin' && user.role !== 'super_admin')) {
    throw fieldError('breakGlassUserId', 'The break-glass admin must be an admin of this organization.');
  }
  if (!user.passwordHash) {
    throw fieldError(
      'breakGlassUserId',
      'The break-glass admin must have a password: choose an admin who signed up or was invited, not one made by SSO.',
    );
  }
}

/**
 * Stores the OIDC issuer, client id and sign-in rules; a new client secret is sealed with the server secret (bound
 * to this organization), and none keeps the one already stored.
 */
export async function saveSsoSettings(
  ctx: UserCtx,
  server: { secret: string | undefined; publicUrl: string; allowedIssuerHosts: readonly AllowedIssuerHost[] },
  input: UpdateSsoBody,
): Promise<SsoSettingsView> {
  // main.ts always sets one (SESSION_SECRET or DATA_DIR/secret); without it nothing could be sealed.
  if (!server.secret) throw new Error('SESSION_SECRET is needed to store SSO client secrets');
  const serverSecret = server.secret;
  // Said now, to the admin who can fix it; every connection is checked again (DNS can change after saving).
  const refusal = await issuerRefusal(new URL(input.issuer), server.allowedIssuerHosts);
  if (refusal) {
    throw new AppError(400, 'issuer_not_allowed', refusal, {
      in: 'body',
      issues: [{ field: 'issuer', message: refusal }],
    });
  }
  const view = await inTransaction(ctx.db, async (tx) => {
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
    if (input.breakGlassUserId) await assertBreakGlassAdmin(tx, ctx.organizationId, input.breakGlassUserId);
    const claims = await replaceDomainClaims(tx, ctx, input.domains);
    const next: SsoConfig = {
      issuer: input.issuer,
      clientId: input.clientId,
      clientSecretSealed: newSecret
        ? seal(serverSecret, SSO_SECRET_PURPOSE, newSecret, ctx.organizationId)
        : (org.sso?.clientSecretSealed ?? null),
      defaultRole: input.defaultRole,
      groupsClaim: input.groupsClaim,
      groupRoles: input.groupRoles,
      ssoRequired: input.ssoRequired,
      breakGlassUserId: input.breakGlassUserId,
    };
    await tx
      .update(organizations)
      .set({ ssoConfig: next, updatedAt: new Date() })
      .where(eq(organizations.id, ctx.organizationId));
    await audit({ ...ctx, db: tx }, 'sso_settings_updated', 'organization', ctx.organizationId, {
      issuer: next.issuer,
      clientId: next.clientId,
      clientSecret: newSecret ? 'replaced' : next.clientSecretSealed ? 'kept' : 'none',
      domains: input.domains,
      defaultRole: input.defaultRole,
      groupRoles: input.groupRoles.length,
      ssoRequired: input.ssoRequired,
      breakGlassUserId: input.breakGlassUserId,
    });
    return presentSso(next, claims, server.publicUrl);
  }).catch((err: unknown) => {
    // The same organization saving twice at once: both insert the same new claim.
    if (isUniqueViolation(err)) throw domainTaken(input.domains);
    throw err;
  });
  forgetProviderConfig(ctx.organizationId);
  return view;
}

/** Forgets the whole SSO configuration, secret and domains included; passwords work again for everyone. */
export async function removeSsoSettings(ctx: UserCtx, publicUrl: string): Promise<SsoSettingsView> {
  const view = await inTransaction(ctx.db, async (tx) => {
    const [org] = await tx
      .update(organizations)
      .set({ ssoConfig: null, updatedAt: new Date() })
      .where(eq(organizations.id, ctx.organizationId))
      .returning({ id: organizations.id });
    if (!org) throw notFound('Organization');
    await tx.delete(ssoDomains).where(eq(ssoDomains.organizationId, ctx.organizationId));
    await audit({ ...ctx, db: tx }, 'sso_settings_removed', 'organization', ctx.organizationId);
    return presentSso(null, [], publicUrl);
  });
  forgetProviderConfig(ctx.organizationId);
  return view;
}

/** Checks the DNS record of one of the organization's domains; once verified, it routes sign-ins here alone. */
export async function verifySsoDomain(
  ctx: UserCtx,
  server: { dnsServers: string[] | null; publicUrl: string },
  domain: string,
): Promise<SsoSettingsView> {
  await verifyDomainClaim(ctx, server.dnsServers, domain);
  return getSsoSettings(ctx, server.publicUrl);
}
