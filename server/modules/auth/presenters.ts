import type { users } from '../../db/schema';
import type { UserView } from '../../../common/schemas/auth';
import { normalizeRole } from '../../../common/roles';

/** The only shape in which a user leaves the server: no hash, no internal columns. */
export function presentUser(row: typeof users.$inferSelect): UserView {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    role: normalizeRole(row.role),
    organizationId: row.organizationId,
    lastActive: row.lastActiveAt ? row.lastActiveAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}
