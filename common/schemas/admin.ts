import { z } from 'zod';

export const AdminUserRow = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.string(),
  lastActive: z.string().nullable(),
});
export type AdminUserRow = z.infer<typeof AdminUserRow>;

export const AuditLogRow = z.object({
  id: z.string(),
  action: z.string(),
  userId: z.string().nullable(),
  username: z.string().nullable(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
});
export type AuditLogRow = z.infer<typeof AuditLogRow>;

export const AuditLogQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1, 'limit must be between 1 and 500')
    .max(500, 'limit must be between 1 and 500')
    .default(100),
  offset: z.coerce.number().int().min(0, 'offset must be 0 or more').default(0),
});
