import { z } from 'zod';
import { ROLES, type Role } from '../roles';
import { isDomainName, SsoDomainView } from './sso-domains';

/**
 * An OIDC issuer is an https URL with no query, fragment or credentials (OpenID Connect Discovery §2); plain http
 * only on the loopback interface (a provider on the same machine, as in tests and local trials). Only the
 * characters a URL may hold unescaped (RFC 3986, less the quote): the issuer is shown in the admin screens and
 * compared with the provider's `iss`, so markup (`<`, `"`, spaces) is refused rather than stored.
 */
const ISSUER_CHARACTERS = /^[A-Za-z0-9\-._~:/[\]@!$&()*+,;=%]+$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
export function isOidcIssuer(value: string): boolean {
  if (!ISSUER_CHARACTERS.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  return secure && !url.search && !url.hash && !url.username && !url.password && !!url.hostname;
}

export function emailDomain(email: string): string {
  return email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
}

/** Roles a first SSO sign-in may give by default: admin only ever through an explicit group mapping. */
export const SSO_DEFAULT_ROLES = ['viewer', 'contributor', 'manager'] as const satisfies readonly Role[];

export const GroupRoleMapping = z.object({
  group: z
    .string({ message: 'Group is required' })
    .trim()
    .min(1, 'Group is required')
    .max(200, 'Group must be at most 200 characters'),
  role: z.enum(ROLES, { message: `Role must be one of ${ROLES.join(', ')}` }),
});
export type GroupRoleMapping = z.infer<typeof GroupRoleMapping>;

/** What is stored in `organizations.sso_config` (the domains live in their own table). */
export type SsoConfig = {
  issuer: string;
  clientId: string;
  clientSecretSealed: string | null;
  /** Absent in configurations saved before these settings existed: read through `ssoDefaults`. */
  defaultRole?: (typeof SSO_DEFAULT_ROLES)[number];
  groupsClaim?: string;
  groupRoles?: GroupRoleMapping[];
  ssoRequired?: boolean;
  breakGlassUserId?: string | null;
};

export const SSO_DEFAULTS = {
  defaultRole: 'viewer',
  groupsClaim: 'groups',
  groupRoles: [] as GroupRoleMapping[],
  ssoRequired: false,
  breakGlassUserId: null as string | null,
} as const;

/** What the SSO tab shows. The client secret is never sent back, only whether one is stored. */
export const SsoSettingsView = z.object({
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  hasClientSecret: z.boolean(),
  domains: z.array(z.string()),
  /** The same domains with their verification: only a verified one routes sign-ins. */
  domainClaims: z.array(SsoDomainView),
  defaultRole: z.enum(SSO_DEFAULT_ROLES),
  groupsClaim: z.string(),
  groupRoles: z.array(GroupRoleMapping),
  ssoRequired: z.boolean(),
  /** The admin who may still sign in with a password while SSO is required. */
  breakGlassUserId: z.string().nullable(),
  /** The address to register at the identity provider as the redirect (callback) URI. */
  redirectUri: z.string(),
  /** The address a SCIM client is given as the base URL. */
  scimBaseUrl: z.string(),
});
export type SsoSettingsView = z.infer<typeof SsoSettingsView>;

export const UpdateSsoBody = z
  .object({
    issuer: z
      .string({ message: 'Issuer URL is required' })
      .trim()
      .min(1, 'Issuer URL is required')
      .max(500, 'Issuer URL must be at most 500 characters')
      .refine(isOidcIssuer, 'Issuer URL must be an https:// address without a query or fragment'),
    clientId: z
      .string({ message: 'Client ID is required' })
      .trim()
      .min(1, 'Client ID is required')
      .max(255, 'Client ID must be at most 255 characters'),
    /** Empty or absent keeps the stored secret. */
    clientSecret: z.string().trim().max(1000, 'Client secret must be at most 1000 characters').optional(),
    domains: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .transform((d) => d.replace(/^@/, ''))
          .refine(isDomainName, 'Each domain must look like example.com'),
        { message: 'Domains must be a list' },
      )
      .max(20, 'At most 20 domains')
      .default([])
      .refine((list) => new Set(list).size === list.length, 'Each domain may be listed once'),
    defaultRole: z
      .enum(SSO_DEFAULT_ROLES, { message: `Default role must be one of ${SSO_DEFAULT_ROLES.join(', ')}` })
      .default(SSO_DEFAULTS.defaultRole),
    groupsClaim: z
      .string()
      .trim()
      .min(1, 'Groups claim is required')
      .max(100, 'Groups claim must be at most 100 characters')
      .regex(/^[A-Za-z0-9_:./-]+$/, 'Groups claim must be a claim name such as groups')
      .default(SSO_DEFAULTS.groupsClaim),
    groupRoles: z
      .array(GroupRoleMapping)
      .max(50, 'At most 50 group mappings')
      .default([])
      .refine(
        (list) => new Set(list.map((m) => m.group.toLowerCase())).size === list.length,
        'Each group may be mapped once',
      ),
    ssoRequired: z.boolean().default(false),
    breakGlassUserId: z.uuid('Break-glass admin must be a user id').nullable().default(null),
  })
  .refine((body) => !body.ssoRequired || body.breakGlassUserId !== null, {
    path: ['breakGlassUserId'],
    message: 'Choose a break-glass admin who can still sign in with a password when SSO is required',
  });
export type UpdateSsoBody = z.infer<typeof UpdateSsoBody>;
export type UpdateSsoInput = z.input<typeof UpdateSsoBody>;

/** How the login page finds where to sign in: by an e-mail address (its domain) or the organization's slug. */
export const SsoDiscoverQuery = z
  .object({
    email: z.email('Enter a valid e-mail address').max(320).optional(),
    organization: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[a-z0-9-]+$/, 'Organization must be its short name (letters, digits and hyphens)')
      .optional(),
  })
  .refine((q) => !!q.email !== !!q.organization, 'Give either an e-mail address or an organization, not both');
export type SsoDiscoverQuery = z.infer<typeof SsoDiscoverQuery>;

export const SsoDiscovery = z.object({
  organizationName: z.string(),
  organization: z.string(),
  ssoRequired: z.boolean(),
  /** Where the browser goes to start signing in (a GET that redirects to the identity provider). */
  startUrl: z.string(),
});
export type SsoDiscovery = z.infer<typeof SsoDiscovery>;

/**
 * A path of this site and nothing a browser could read as another one: no `//` or backslash (`/\evil` and
 * `//evil` are other hosts to browsers) and no control characters (browsers drop a tab or newline, so `/\t/evil`
 * becomes `//evil`).
 */
export function isLocalPath(p: string): boolean {
  // eslint-disable-next-line no-control-regex
  return p.startsWith('/') && !p.startsWith('//') && !p.includes('\\') && !/[\u0000-\u001f\u007f]/.test(p);
}

export const SsoStartQuery = z.object({
  organization: z.string().trim().min(1).max(100),
  /** A path inside Verity to land on afterwards (never another site). */
  returnTo: z.string().max(500).refine(isLocalPath, 'returnTo must be a path inside Verity').optional(),
});
export type SsoStartQuery = z.infer<typeof SsoStartQuery>;

/**
 * Why an SSO sign-in did not finish: the callback sends the browser to `/login?sso_error=<code>`, and the login
 * page shows the sentence.
 */
export const SSO_ERRORS = {
  sso_failed: 'Signing in with SSO did not work. Try again, or ask your admin to check the SSO settings.',
  sso_expired: 'That sign-in took too long or was already used. Start again with “Sign in with SSO”.',
  sso_denied: 'Your identity provider did not sign you in.',
  sso_unreachable:
    'Verity could not reach your identity provider. Try again in a few minutes, or ask your admin to check the issuer URL.',
  sso_not_configured: 'Your organization no longer signs in with SSO. Sign in with your password.',
  sso_other_organization: 'This e-mail address belongs to an account in another organization. Ask your admin.',
  sso_deactivated: 'Your Verity account is deactivated. Ask an admin of your organization to restore it.',
  sso_no_email: 'Your identity provider did not send an e-mail address. Ask your admin to release the email claim.',
  sso_unverified:
    'Your identity provider did not confirm your e-mail address, so Verity cannot match it to an account. Ask your admin.',
  sso_start_elsewhere:
    'For your safety, signing in with SSO starts on this page. Enter your work e-mail address below and continue.',
  sso_busy: 'Too many sign-ins at once. Wait a minute and sign in with SSO again.',
  sso_domain_elsewhere:
    'Your e-mail domain signs in to Verity through another organization. Sign in there, or ask your admin.',
} as const;
export type SsoErrorCode = keyof typeof SSO_ERRORS;

/** SCIM provisioning as the admin screen shows it: never a token, only whether one is live and its prefix. */
export const ScimTokenView = z.object({
  id: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ScimTokenView = z.infer<typeof ScimTokenView>;

export const ScimSettingsView = z.object({
  baseUrl: z.string(),
  tokens: z.array(ScimTokenView),
});
export type ScimSettingsView = z.infer<typeof ScimSettingsView>;

/** A new SCIM token is shown once, in this reply. */
export const CreatedScimToken = z.object({ token: z.string(), view: ScimTokenView });
export type CreatedScimToken = z.infer<typeof CreatedScimToken>;
