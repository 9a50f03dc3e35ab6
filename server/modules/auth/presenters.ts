import type { authSessions, users } from '../../db/schema';
import type { SessionView, UserView } from '../../../common/schemas/auth';
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

/** A session as its owner sees it: when and from where, and whether it is this browser. Never its id or hash. */
export function presentSession(row: typeof authSessions.$inferSelect, currentHash: string): SessionView {
  return {
    current: row.idHash === currentHash,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    ip: row.ip,
    userAgent: row.userAgent,
  };
}
