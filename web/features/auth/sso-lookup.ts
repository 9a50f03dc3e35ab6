import { SsoDiscoverQuery, SSO_ERRORS, type SsoErrorCode } from '../../../common/schemas/sso';

/**
 * What was typed in "Work e-mail or organization" as the discovery query: an address (its domain finds the
 * organization) or an organization's short name, checked by the same schema the server applies.
 */
export function ssoLookupQuery(input: string): { ok: true; query: SsoDiscoverQuery } | { ok: false; message: string } {
  const value = input.trim();
  if (!value) return { ok: false, message: 'Enter your work e-mail address or your organization' };
  // Slugs are lower case; people type their organization's name as they see it.
  const candidate = value.includes('@') ? { email: value } : { organization: value.toLowerCase() };
  const parsed = SsoDiscoverQuery.safeParse(candidate);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? 'Check what you typed' };
  return { ok: true, query: parsed.data };
}

/** The sentence for the callback's `?sso_error=` code; null for a code Verity never sends (its text is not shown). */
export function ssoErrorSentence(code: string | null): string | null {
  if (code === null || !Object.hasOwn(SSO_ERRORS, code)) return null;
  return SSO_ERRORS[code as SsoErrorCode];
}

/** The discovery's start address, told where to land after signing in (a path inside Verity). */
export function ssoStartHref(startUrl: string, returnTo: string | null): string {
  if (!returnTo) return startUrl;
  return `${startUrl}${startUrl.includes('?') ? '&' : '?'}${new URLSearchParams({ returnTo }).toString()}`;
}

const LAST_LOOKUP_KEY = 'verity.sso.lastLookup';

/** The address or organization used for the last SSO sign-in on this browser, offered again next time. */
export function readLastSsoLookup(): string {
  try {
    return localStorage.getItem(LAST_LOOKUP_KEY) ?? '';
  } catch {
    // Storage may be disabled: the box simply starts empty.
    return '';
  }
}

export function saveLastSsoLookup(value: string): void {
  try {
    localStorage.setItem(LAST_LOOKUP_KEY, value);
  } catch {
    // Best effort.
  }
}
