import * as oidc from 'openid-client';
import { unseal } from '../../secret';
import { AppError } from '../../errors';
import type { SsoConfig } from '../../../common/schemas/sso';
import type { AllowedIssuerHost } from '../../config';
import { SSO_SECRET_PURPOSE } from './settings';
import { guardedFetch } from './outbound';

/** Discovery documents change rarely; asking the provider at every sign-in would make its outage ours sooner. */
const CACHE_MS = 10 * 60_000;
const DISCOVERY_TIMEOUT_SECONDS = 10;

type Cached = { key: string; at: number; config: Promise<oidc.Configuration> };
/** What discovery needs of the server's configuration: the key to the client secret, the hosts the operator allowed. */
export type ProviderServer = { secret: string | undefined; allowedIssuerHosts: readonly AllowedIssuerHost[] };
const cache = new Map<string, Cached>();

/** Settings saved or removed: the next sign-in discovers again. */
export function forgetProviderConfig(organizationId: string): void {
  cache.delete(organizationId);
}

function isLoopback(issuer: URL): boolean {
  return issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
}

/**
 * The provider's metadata (issuer discovery: OpenID Connect Discovery 1.0) and this organization's client. The
 * discovered `issuer` must equal the configured one, which openid-client checks. With a client secret the client
 * authenticates with it (client_secret_basic); without, it is a public client relying on PKCE. Every request to the
 * provider goes through the outbound guard (outbound.ts), also those of a configuration taken from the cache.
 */
export function providerConfig(
  organizationId: string,
  sso: SsoConfig,
  server: ProviderServer,
): Promise<oidc.Configuration> {
  const key = `${sso.issuer}\n${sso.clientId}\n${sso.clientSecretSealed ?? ''}`;
  const hit = cache.get(organizationId);
  if (hit && hit.key === key && Date.now() - hit.at < CACHE_MS) return hit.config;
  const config = discover(organizationId, sso, server);
  cache.set(organizationId, { key, at: Date.now(), config });
  // A failed discovery is not remembered: the next sign-in tries again.
  config.catch(() => {
    if (cache.get(organizationId)?.config === config) cache.delete(organizationId);
  });
  return config;
}

async function discover(organizationId: string, sso: SsoConfig, server: ProviderServer): Promise<oidc.Configuration> {
  const issuer = new URL(sso.issuer);
  let secret: string | undefined;
  if (sso.clientSecretSealed) {
    try {
      if (!server.secret) throw new Error('no server secret');
      secret = unseal(server.secret, SSO_SECRET_PURPOSE, sso.clientSecretSealed, organizationId);
    } catch {
      // Sealed under another SESSION_SECRET (or moved between organizations): only a new secret helps.
      throw new AppError(500, 'sso_secret_unreadable', 'The stored SSO client secret cannot be read. Enter it again.');
    }
  }
  return oidc.discovery(issuer, sso.clientId, undefined, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), {
    timeout: DISCOVERY_TIMEOUT_SECONDS,
    // Kept by the configuration for the token and key requests too: each URL the discovery document names is
    // checked, and a host name's address at connection time.
    [oidc.customFetch]: guardedFetch(server.allowedIssuerHosts),
    // The ID token's signature is checked against the provider's published keys even though it came straight from
    // the token endpoint (OIDC Core §3.1.3.7 lets clients rely on TLS alone there; a loopback provider has no TLS,
    // and a checked signature also holds if the transport ever does not). Plain http stays limited to a loopback
    // host the operator allowed: the guard refuses it anywhere else, also for endpoints the document names.
    execute: isLoopback(issuer)
      ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks]
      : [oidc.enableNonRepudiationChecks],
  });
}
