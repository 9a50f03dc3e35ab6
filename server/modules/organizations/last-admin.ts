import { and, eq, isNull } from 'drizzle-orm';
import { users } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { can } from '../../../common/policies';
import { normalizeRole } from '../../../common/roles';

/** Admin-level means "may manage users" in the policy table, as in the organizations service. */
export const isAdmin = (role: string) => can(normalizeRole(role), 'users:manage');

/**
 * Whether the user is the organization's only live admin. Locks the organization's live users first, so two
 * concurrent demotions (or deactivations) cannot both see "another admin remains".
 */
export async function isLastAdmin(tx: DbOrTx, organizationId: string, userId: string): Promise<boolean> {
  const live = await tx
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), isNull(users.deletedAt)))
    .for('update');
  const target = live.find((u) => u.id === userId);
  if (!target || !isAdmin(target.role)) return false;
  return !live.some((u) => u.id !== userId && isAdmin(u.role));
}
