import { z } from 'zod';

/** A DNS name as people type it after '@' (lower case, at least one dot, labels of letters, digits and hyphens). */
const DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export function isDomainName(value: string): boolean {
  return DOMAIN.test(value);
}

/** The TXT record's value starts with this; the rest is the claim's token. */
export const DOMAIN_VERIFICATION_PREFIX = 'verity-domain-verification=';
/** The record may sit at the domain itself or at this label under it (for a DNS host that crowds the apex). */
export const DOMAIN_CHALLENGE_LABEL = '_verity-challenge';

/**
 * One e-mail domain the organization claims for SSO. It routes sign-ins (the login page's lookup by e-mail, trusted
 * addresses at a first sign-in) only once verified: until then the admin publishes `record` in the domain's DNS.
 */
export const SsoDomainView = z.object({
  domain: z.string(),
  verified: z.boolean(),
  verifiedAt: z.string().nullable(),
  /** The TXT record that proves the organization holds the domain: `value` at `name` (or at the domain itself). */
  record: z.object({ name: z.string(), value: z.string() }),
});
export type SsoDomainView = z.infer<typeof SsoDomainView>;

export const SsoDomainParams = z.object({
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .max(253, 'Domain must be at most 253 characters')
    .refine(isDomainName, 'Domain must look like example.com'),
});
export type SsoDomainParams = z.infer<typeof SsoDomainParams>;
