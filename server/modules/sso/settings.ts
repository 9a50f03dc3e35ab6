import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { organizations, ssoDomains, users } from '../../db/schema';
import { inTransaction, type DbOrTx } from '../../db/client';
import { AppError, badRequest, notFound } from '../../errors';
import type { UserCtx } from '../../context';
import { seal } from '../../secret';
import { audit } from '../audit/service';
import { forgetProviderConfig } from './provider';
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

/** Never the secret, sealed or not: only whether one is stored. */
export function presentSso(config: SsoConfig | null, domains: string[], publicUrl: string): SsoSettingsView {
  const full = config ? withSsoDefaults(config) : null;
  return {
    issuer: full?.issuer ?? null,
    clientId: full?.clientId ?? null,
    hasClientSecret: !!full?.clientSecretSealed,
    domains,
    defaultRole: full?.defaultRole ?? SSO_DEFAULTS.defaultRole,
    groupsClaim: full?.groupsClaim ?? SSO_DEFAULTS.groupsClaim,
    groupRoles: full?.groupRoles ?? SSO_DEFAULTS.groupRoles,
    ssoRequired: full?.ssoRequired ?? SSO_DEFAULTS.ssoRequired,
    breakGlassUserId: full?.breakGlassUserId ?? SSO_DEFAULTS.breakGlassUserId,
    redirectUri: `${publicUrl}${SSO_CALLBACK_PATH}`,
    scimBaseUrl: `${publicUrl}/scim/v2`,
  };
}

async function domainsOf(db: DbOrTx, organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(eq(ssoDomains.organizationId, organizationId))
    .orderBy(asc(ssoDomains.domain));
  return rows.map((r) => r.domain);
}

export async function getSsoSettings(ctx: UserCtx, publicUrl: string): Promise<SsoSettingsView> {
  const [org] = await ctx.db
    .select({ sso: organizations.ssoConfig })
    .from(organizations)
    .where(eq(organizations.id, ctx.organizationId));
  if (!org) throw notFound('Organization');
  return presentSso(org.sso, await domainsOf(ctx.db, ctx.organizationId), publicUrl);
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

const domainTaken = (domains: string[]) =>
  new AppError(
    409,
    'domain_taken',
    `${domains.join(', ')} already signs in to another organization. Remove it from the list.`,
    { in: 'body', issues: [{ field: 'domains', message: 'Taken by another organization' }] },
  );

/** A domain belongs to one organization: claiming another's would send its people to the wrong identity provider. */
async function replaceDomains(tx: DbOrTx, organizationId: string, domains: string[]): Promise<void> {
  if (domains.length > 0) {
    const taken = await tx
      .select({ domain: ssoDomains.domain })
      .from(ssoDomains)
      .where(and(inArray(ssoDomains.domain, domains), ne(ssoDomains.organizationId, organizationId)));
    if (taken.length > 0) throw domainTaken(taken.map((t) => t.domain));
  }
  await tx.delete(ssoDomains).where(eq(ssoDomains.organizationId, organizationId));
  // Two organizations saving the same domain at once: the primary key refuses the second (409 below).
  if (domains.length > 0) await tx.insert(ssoDomains).values(domains.map((domain) => ({ domain, organizationId })));
}

/**
 * Stores the OIDC issuer, client id and sign-in rules; a new client secret is sealed with the server secret (bound
 * to this organization), and none keeps the one already stored.
 */
export async function saveSsoSettings(
  ctx: UserCtx,
  server: { secret: string | undefined; publicUrl: string },
  input: UpdateSsoBody,
): Promise<SsoSettingsView> {
  // main.ts always sets one (SESSION_SECRET or DATA_DIR/secret); without it nothing could be sealed.
  if (!server.secret) throw new Error('SESSION_SECRET is needed to store SSO client secrets');
  const serverSecret = server.secret;
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
    await replaceDomains(tx, ctx.organizationId, input.domains);
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
    return presentSso(next, input.domains, server.publicUrl);
  }).catch((err: unknown) => {
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
