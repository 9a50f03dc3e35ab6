import { z } from 'zod';
import { BRAND_TONES } from '../constants';
import { ROLES } from '../roles';

const text = (max: number) => z.string().trim().max(max, `Must be at most ${max} characters`);

export const BrandProfile = z.object({
  tone: z.enum(BRAND_TONES, { message: `Tone must be one of: ${BRAND_TONES.join(', ')}` }),
  languageRules: text(5000).default(''),
  boilerplate: text(10000).default(''),
  disclaimers: text(5000).default(''),
  bannedTokens: z.array(z.string().trim().min(1).max(100)).max(200).default([]),
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

export const UpdateOrganizationBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Organization name is required')
    .max(120, 'Organization name must be at most 120 characters')
    .optional(),
  brandName: z.string().trim().max(60, 'Brand name must be at most 60 characters').nullable().optional(),
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
  email: z.string().trim().toLowerCase().pipe(z.email('Invalid email address')),
  role: z.enum(ROLES, { message: `Role must be one of: ${ROLES.join(', ')}` }),
});
export type CreateInvitationBody = z.infer<typeof CreateInvitationBody>;

export const InvitationCreated = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  token: z.string(),
  url: z.string(),
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
