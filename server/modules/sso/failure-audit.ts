import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { writeAudit } from '../audit/service';
import { AddressNotAllowed } from './outbound';

/**
 * Failed SSO sign-ins in the organization's audit log (`sso_sign_in_failed`). Anyone can start a sign-in for an
 * organization and fail it, so what a row says is Verity's own classification, never text a provider or a network
 * error chose: a transport error's wording would tell an admin-turned-prober whether a port is closed or answers
 * HTML or JSON, and a provider's `error` or `error_description` is whatever the URL says. The server log keeps the
 * detail.
 */
export type FailureReason =
  /** The issuer, or an endpoint its discovery document names, is not on a public address nor an allowed host. */
  | 'issuer_not_allowed'
  | 'discovery_failed'
  | 'secret_unreadable'
  | 'token_exchange_failed'
  /** The ID token failed a check (signature, issuer, audience, expiry, nonce…): `check` says which. */
  | 'id_token_invalid'
  | 'no_id_token'
  /** The provider sent the person back with an error: `error` is its code when a registered one, else `other`. */
  | 'provider_error';

export type Failure = { reason: FailureReason | string; check?: string; error?: string };

/**
 * Error codes the OAuth 2.0 and OpenID Connect specifications register for authorization responses (RFC 6749
 * §4.1.2.1, OIDC Core §3.1.2.6) and token responses (RFC 6749 §5.2). Anything else a provider (or a forged link)
 * sends is stored as `other`.
 */
const OAUTH_ERROR_CODES = new Set([
  'invalid_request',
  'unauthorized_client',
  'access_denied',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
  'interaction_required',
  'login_required',
  'account_selection_required',
  'consent_required',
  'invalid_request_uri',
  'invalid_request_object',
  'request_not_supported',
  'request_uri_not_supported',
  'registration_not_supported',
  'invalid_client',
  'invalid_grant',
  'unsupported_grant_type',
]);

export function registeredErrorCode(error: unknown): string {
  return typeof error === 'string' && OAUTH_ERROR_CODES.has(error) ? error : 'other';
}

/**
 * openid-client's codes for a check of what the provider sent that failed (claims, issuer, signature key). Their
 * messages are the library's own fixed sentences naming the check, worth keeping for the admin who must fix it.
 */
const CHECK_CODES = new Set([
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_KEY_SELECTION_FAILED',
]);

function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = err; e !== undefined && chain.length < 6; e = e instanceof Error ? e.cause : undefined) chain.push(e);
  return chain;
}

function failedCheck(chain: unknown[]): string | undefined {
  // The innermost error naming a check is the precise one (openid-client wraps it in a generic sentence).
  const check = chain.findLast((e): e is Error & { code: string } => {
    if (!(e instanceof Error) || !('code' in e) || typeof e.code !== 'string') return false;
    return CHECK_CODES.has(e.code) || (e.code === 'OAUTH_INVALID_RESPONSE' && /\bJWT\b/.test(e.message));
  });
  return check?.message.slice(0, 200);
}

/** What went wrong talking to the provider, in Verity's words (see `Failure`). */
export function classifyProviderFailure(err: unknown, stage: 'discovery' | 'token'): Failure {
  const chain = causeChain(err);
  if (chain.some((e) => e instanceof AddressNotAllowed)) return { reason: 'issuer_not_allowed' };
  if (chain.some((e) => e instanceof AppError && e.code === 'sso_secret_unreadable')) {
    return { reason: 'secret_unreadable' };
  }
  const check = failedCheck(chain);
  if (stage === 'discovery') return { reason: 'discovery_failed', ...(check && { check }) };
  if (check) return { reason: 'id_token_invalid', check };
  // The token endpoint answered with an OAuth error (invalid_grant, invalid_client: a wrong secret…).
  const answered = chain.find((e) => e instanceof Error && e.name === 'ResponseBodyError' && 'error' in e);
  return answered
    ? { reason: 'token_exchange_failed', error: registeredErrorCode((answered as { error: unknown }).error) }
    : { reason: 'token_exchange_failed' };
}

/**
 * At most `limit` rows per key (organization) per window; failures beyond are counted, and the next row written
 * says how many were left out (`notLogged`). Kept in this process's memory: each server process counts on its own,
 * so with several the bound is that many times higher, still bounded; a count still pending when the attempts stop
 * is lost, which costs only the summary. Good enough to keep a log readable, and needs no table or migration.
 */
export class FailureAuditLimiter {
  private readonly windows = new Map<string, { start: number; written: number; dropped: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** null: leave this failure out of the log; else how many were left out since the last one written. */
  admit(key: string): number | null {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, written: 0, dropped: window?.dropped ?? 0 };
      this.windows.set(key, window);
      this.forgetQuietOnes(now);
    }
    if (window.written >= this.limit) {
      window.dropped++;
      return null;
    }
    window.written++;
    const dropped = window.dropped;
    window.dropped = 0;
    return dropped;
  }

  /** Bounds the memory: windows that ended with nothing left to report are no longer needed. */
  private forgetQuietOnes(now: number): void {
    if (this.windows.size <= 10_000) return;
    for (const [key, w] of this.windows) {
      if (now - w.start >= this.windowMs && w.dropped === 0) this.windows.delete(key);
    }
  }
}

/** Failed sign-ins written per organization and minute; the rest are counted (see FailureAuditLimiter). */
export const FAILURE_AUDITS_PER_MINUTE = 20;
const limiter = new FailureAuditLimiter(FAILURE_AUDITS_PER_MINUTE, 60_000);

/**
 * A sign-in that did not finish, in the organization's audit log (bounded, see above) and the server log (with the
 * error itself, for whoever runs Verity).
 */
export async function auditFailure(
  deps: { db: DbOrTx; log: FastifyBaseLogger },
  organizationId: string,
  failure: Failure,
  meta: { ip?: string; err?: unknown } = {},
): Promise<void> {
  const logged = { organizationId, ...failure, ...(meta.err !== undefined && { err: meta.err }) };
  if (failure.reason === 'provider_error') deps.log.info(logged, 'SSO sign-in failed');
  else deps.log.warn(logged, 'SSO sign-in failed');
  const notLogged = limiter.admit(organizationId);
  if (notLogged === null) return;
  await writeAudit(deps.db, {
    organizationId,
    userId: null,
    action: 'sso_sign_in_failed',
    entityType: 'organization',
    entityId: organizationId,
    details: {
      ...failure,
      reason: failure.reason.slice(0, 300),
      ...(meta.ip && { ip: meta.ip }),
      ...(notLogged > 0 && { notLogged }),
    },
  });
}
