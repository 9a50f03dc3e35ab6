import { and, eq, gt, lt } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { organizations, ssoLoginAttempts } from '../../db/schema';
import { inTransaction, type DbOrTx } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { isUniqueViolation } from '../auth/unique-user';
import { hashToken } from '../../tokens';
import { writeAudit } from '../audit/service';
import { createSession } from '../auth/sessions';
import { providerConfig, type ProviderServer } from './provider';
import { auditFailure, classifyProviderFailure, registeredErrorCode, type Failure } from './failure-audit';
import { SSO_CALLBACK_PATH } from './settings';
import { provisionFromClaims, SsoRefusal } from './provision';
import { verifiedDomainOwner } from './domains';
import {
  emailDomain,
  type SsoConfig,
  type SsoDiscovery,
  type SsoDiscoverQuery,
  type SsoErrorCode,
  type SsoStartQuery,
} from '../../../common/schemas/sso';

/** Long enough to type a password and answer an MFA prompt at the provider; short enough that a stale tab fails. */
const ATTEMPT_TTL_MS = 10 * 60_000;
const SCOPE = 'openid email profile';

type ClientMeta = { ip: string; userAgent?: string };
type SsoOrganization = { id: string; name: string; slug: string; sso: SsoConfig };

/** The organization and its SSO settings, when it has them (an issuer and a client id). */
async function ssoOrganization(db: DbOrTx, where: { slug: string } | { id: string }): Promise<SsoOrganization | null> {
  const [org] = await db
    .select({ id: organizations.id, name: organizations.name, slug: organizations.slug, sso: organizations.ssoConfig })
    .from(organizations)
    .where('slug' in where ? eq(organizations.slug, where.slug) : eq(organizations.id, where.id))
    .limit(1);
  return org?.sso ? { ...org, sso: org.sso } : null;
}

/**
 * Where a person signs in: the organization that verified their e-mail domain, or the one with the slug they typed.
 * Only organizations with SSO are found: the answer tells no more than the login page's button would.
 */
export async function discoverSso(db: DbOrTx, query: SsoDiscoverQuery): Promise<SsoDiscovery> {
  let org: SsoOrganization | null = null;
  if (query.email) {
    // Only a verified claim routes: an unverified one could be anybody's guess at another company's domain.
    const owner = await verifiedDomainOwner(db, emailDomain(query.email));
    if (owner) org = await ssoOrganization(db, { id: owner });
  } else if (query.organization) {
    org = await ssoOrganization(db, { slug: query.organization });
  }
  if (!org) {
    throw new AppError(
      404,
      'not_found',
      query.email
        ? 'No organization signs in with SSO for this e-mail domain. Sign in with your password, or ask your admin.'
        : 'This organization does not sign in with SSO. Sign in with your password, or ask your admin.',
    );
  }
  return {
    organizationName: org.name,
    organization: org.slug,
    ssoRequired: org.sso.ssoRequired ?? false,
    startUrl: `/api/auth/sso/start?${new URLSearchParams({ organization: org.slug })}`,
  };
}

const providerServer = (deps: AppDeps): ProviderServer => ({
  secret: deps.config.sessionSecret,
  allowedIssuerHosts: deps.config.ssoAllowedIssuerHosts,
});

/**
 * Starts the authorization code flow with PKCE: a fresh state, nonce and code verifier are kept server-side under
 * the state's hash (single use, ten minutes), and the browser is sent to the provider. The caller also binds the
 * state to this browser with a cookie, so a callback link made in another browser is refused.
 */
export async function startSsoSignIn(
  deps: AppDeps,
  query: SsoStartQuery,
): Promise<{ redirectTo: string; state: string } | { error: SsoErrorCode }> {
  const org = await ssoOrganization(deps.db, { slug: query.organization });
  // A navigation: the browser goes back to the login page, which says why, rather than to a JSON page.
  if (!org) return { error: 'sso_not_configured' };
  let config: oidc.Configuration;
  try {
    config = await providerConfig(org.id, org.sso, providerServer(deps));
  } catch (err) {
    await auditFailure(deps, org.id, classifyProviderFailure(err, 'discovery'), { err });
    return { error: 'sso_unreachable' };
  }
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  await deps.db.delete(ssoLoginAttempts).where(lt(ssoLoginAttempts.expiresAt, new Date()));
  await deps.db.insert(ssoLoginAttempts).values({
    stateHash: hashToken(state),
    organizationId: org.id,
    codeVerifier,
    nonce,
    returnTo: query.returnTo ?? null,
    expiresAt: new Date(Date.now() + ATTEMPT_TTL_MS),
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${deps.config.publicUrl}${SSO_CALLBACK_PATH}`,
    scope: SCOPE,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { redirectTo: url.href, state };
}

export type CallbackResult = { ok: true; sessionToken: string; returnTo: string } | { ok: false; error: SsoErrorCode };

/**
 * Finishes a sign-in: the state must be one this server issued to this browser and not used before; then the code
 * is exchanged (with the PKCE verifier) and the ID token checked — signature by the provider's keys, issuer,
 * audience, expiry and nonce (openid-client) — before the person is found or created. Failures never say more than
 * a code the login page explains; a classified reason goes to the audit log of the organization (failure-audit.ts).
 * Nothing is written before the state is known to be one this server issued to this browser: an invented or
 * stolen state cannot put rows into any organization's log.
 */
export async function finishSsoSignIn(
  deps: AppDeps,
  input: { callbackUrl: URL; state: string | undefined; browserState: string | undefined; meta: ClientMeta },
): Promise<CallbackResult> {
  const { state } = input;
  if (!state || !input.browserState || state !== input.browserState) return { ok: false, error: 'sso_expired' };
  // Deleting the attempt is what makes it single use: a replayed callback finds nothing.
  const [attemptRow] = await deps.db
    .delete(ssoLoginAttempts)
    .where(and(eq(ssoLoginAttempts.stateHash, hashToken(state)), gt(ssoLoginAttempts.expiresAt, new Date())))
    .returning();
  if (!attemptRow) return { ok: false, error: 'sso_expired' };
  const org = await ssoOrganization(deps.db, { id: attemptRow.organizationId });
  if (!org) return { ok: false, error: 'sso_not_configured' };
  const fail = async (error: SsoErrorCode, failure: Failure, err?: unknown): Promise<CallbackResult> => {
    await auditFailure(deps, org.id, failure, { ip: input.meta.ip, err });
    return { ok: false, error };
  };
  // Only the error's code, and only a registered one: the rest of the URL (`error_description` too) is whatever
  // the link's author typed.
  const providerError = input.callbackUrl.searchParams.get('error');
  if (providerError !== null) {
    return fail('sso_denied', { reason: 'provider_error', error: registeredErrorCode(providerError) });
  }

  let claims: oidc.IDToken;
  try {
    const config = await providerConfig(org.id, org.sso, providerServer(deps));
    const tokens = await oidc.authorizationCodeGrant(config, input.callbackUrl, {
      pkceCodeVerifier: attemptRow.codeVerifier,
      expectedState: state,
      expectedNonce: attemptRow.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) return fail('sso_failed', { reason: 'no_id_token' });
    claims = idClaims;
  } catch (err) {
    return fail('sso_failed', classifyProviderFailure(err, 'token'), err);
  }

  // Two first sign-ins of one person at once (two tabs) race to create the account: the loser's unique violation
  // is answered by trying once more, when the winner's account is there to be found.
  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(deps.db, async (tx) => {
        const user = await provisionFromClaims(tx, org, claims);
        const sessionToken = await createSession(tx, user, { ttlMs: deps.config.sessionTtlMs, ...input.meta });
        await writeAudit(tx, {
          organizationId: org.id,
          userId: user.id,
          action: 'user_logged_in',
          entityType: 'user',
          entityId: user.id,
          details: { via: 'sso', issuer: org.sso.issuer },
        });
        return { ok: true as const, sessionToken, returnTo: attemptRow.returnTo ?? '/' };
      });
    } catch (err) {
      if (err instanceof SsoRefusal) return fail(err.code, { reason: err.message });
      if (isUniqueViolation(err) && attempt < 2) continue;
      if (isUniqueViolation(err))
        return fail('sso_failed', { reason: 'the account could not be created: its name or address was taken' });
      throw err;
    }
  }
}
