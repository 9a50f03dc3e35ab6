import type { apiTokens } from '../../db/schema';
import type { ApiTokenView } from '../../../common/schemas/api-tokens';
import { normalizeRole } from '../../../common/roles';

export function presentApiToken(row: typeof apiTokens.$inferSelect & { creatorName: string }): ApiTokenView {
  const role = normalizeRole(row.role);
  return {
    id: row.id,
    name: row.name,
    role: role === 'super_admin' ? 'admin' : role,
    prefix: row.prefix,
    createdBy: row.creatorName,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
