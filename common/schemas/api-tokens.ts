import { z } from 'zod';
import { ROLES } from '../roles';

/** Every API token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'vrt_';

export const ApiTokenView = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  /** The token's first characters, to tell tokens apart; the rest is never shown again. */
  prefix: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiTokenView = z.infer<typeof ApiTokenView>;

export const CreateApiTokenBody = z.object({
  name: z.string().trim().min(1, 'Token name is required').max(80, 'Token name must be at most 80 characters'),
  role: z.enum(ROLES, { message: 'Role must be viewer, contributor, manager or admin' }),
  expiresInDays: z
    .number({ message: 'Expiry must be a number of days' })
    .int('Expiry must be a whole number of days')
    .min(1, 'Expiry must be between 1 and 365 days')
    .max(365, 'Expiry must be between 1 and 365 days')
    .nullable()
    .optional(),
});
export type CreateApiTokenBody = z.infer<typeof CreateApiTokenBody>;

/** The one response that holds the whole token: it is shown once and cannot be read again. */
export const CreatedApiToken = ApiTokenView.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;
