import { z } from 'zod';
import { BRAND_TONES } from '../constants';
import { safeName } from '../names';
import { ROLES } from '../roles';
import { Email } from './auth';

/**
 * Upper bounds of the brand profile: room for a real style guide, but a disclaimer is appended to every answer and
 * banned tokens are checked against every generated sentence, so neither may grow without limit.
 */
export const BRAND_PROFILE_LIMITS = {
  languageRules: 5000,
  boilerplate: 10_000,
  disclaimers: 5000,
  bannedTokenLength: 100,
  bannedTokens: 200,
} as const;

/** A text field whose length message names the field, so a rejected save says which box is too long. */
const text = (label: string, max: number) => z.string().trim().max(max, `${label} must be at most ${max} characters`);

/** Banned tokens are plain text (matched ignoring case, never as patterns), so '.*' or 'C++' mean just that. */
export const BannedToken = z
  .string()
  .trim()
  .min(1, 'A banned token cannot be empty')
  .max(
    BRAND_PROFILE_LIMITS.bannedTokenLength,
    `Each banned token must be at most ${BRAND_PROFILE_LIMITS.bannedTokenLength} characters`,
  );

export const BrandProfile = z.object({
  tone: z.enum(BRAND_TONES, { message: `Tone must be one of: ${BRAND_TONES.join(', ')}` }),
  languageRules: text('Language rules', BRAND_PROFILE_LIMITS.languageRules).default(''),
  boilerplate: text('Content guidelines', BRAND_PROFILE_LIMITS.boilerplate).default(''),
  disclaimers: text('Disclaimers', BRAND_PROFILE_LIMITS.disclaimers).default(''),
  bannedTokens: z
    .array(BannedToken, { message: 'Banned tokens must be a list of text' })
    .max(BRAND_PROFILE_LIMITS.bannedTokens, `At most ${BRAND_PROFILE_LIMITS.bannedTokens} banned tokens are allowed`)
    .default([]),
});
export type BrandProfile = z.infer<typeof BrandProfile>;

export const OrganizationView = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  brandName: z.string().nullable(),
  brandProfile: BrandProfile,
  createdAt: z.string(),
});
export type OrganizationView = z.infer<typeof OrganizationView>;

/** Lower-case letters, digits and single hyphens; it identifies the organization in URLs, so it is unique. */
export const ORGANIZATION_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const OrganizationSlug = z
  .string()
  .trim()
  .min(2, 'Slug must be at least 2 characters')
  .max(63, 'Slug must be at most 63 characters')
  .regex(
    ORGANIZATION_SLUG_PATTERN,
    'Slug may contain only lower-case letters, digits and hyphens, and must start and end with a letter or digit',
  );

/** Goes into invitation e-mails, so it holds no line breaks or text-direction controls (common/names.ts). */
export const OrganizationName = safeName(
  z
    .string()
    .trim()
    .min(1, 'Organization name is required')
    .max(120, 'Organization name must be at most 120 characters'),
  'Organization name',
);
/** The sidebar's brand label; empty means the default ('InfoSec Agent'). */
export const BrandName = z.string().trim().max(60, 'Brand name must be at most 60 characters');

export const UpdateOrganizationBody = z.object({
  name: OrganizationName.optional(),
  brandName: BrandName.nullable().optional(),
  slug: OrganizationSlug.optional(),
  brandProfile: BrandProfile.optional(),
});
export type UpdateOrganizationBody = z.infer<typeof UpdateOrganizationBody>;

export const OrganizationStats = z.object({
  canonicalCount: z.number().int(),
  documentCount: z.number().int(),
  monthlyQueries: z.number().int(),
  pendingTasks: z.number().int(),
  openConflicts: z.number().int(),
});
export type OrganizationStats = z.infer<typeof OrganizationStats>;

export const ChangeRoleBody = z.object({
  role: z.enum(ROLES, { message: `Role must be one of: ${ROLES.join(', ')}` }),
});
export type ChangeRoleBody = z.infer<typeof ChangeRoleBody>;

export const UserIdParams = z.object({ userId: z.uuid({ message: 'Invalid user id' }) });

export const CreateInvitationBody = z.object({
  email: Email,
  role: z.enum(ROLES, { message: `Role must be one of: ${ROLES.join(', ')}` }),
});
export type CreateInvitationBody = z.infer<typeof CreateInvitationBody>;

/** `token` and `url` only for a signed-in person: an API token's caller never sees the link (it is mailed). */
export const InvitationCreated = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  token: z.string().optional(),
  url: z.string().optional(),
  expiresAt: z.string(),
});
export type InvitationCreated = z.infer<typeof InvitationCreated>;

export const InvitationView = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  expiresAt: z.string(),
  acceptedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type InvitationView = z.infer<typeof InvitationView>;
