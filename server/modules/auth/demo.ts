import { and, isNull, sql } from 'drizzle-orm';
import { users } from '../../db/schema';
import { inTransaction, type Db } from '../../db/client';
import { createOrganizationWithAdmin } from '../organizations/create';
import { hashPassword } from './passwords';
import type { AppDeps } from '../../deps';

/** Public on purpose: the demo account exists only when DEMO_USER is set, to show the product to visitors. */
export const DEMO_CREDENTIALS = { username: 'demo', password: 'demo1234' } as const;

export async function demoUserExists(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.username}) = ${DEMO_CREDENTIALS.username}`, isNull(users.deletedAt)))
    .limit(1);
  return Boolean(row);
}

/** What the sign-in page offers visitors: the demo account's credentials, when it is enabled and exists. */
export async function demoCredentials(deps: Pick<AppDeps, 'db' | 'config'>) {
  if (!deps.config.demoUser || !(await demoUserExists(deps.db))) return { available: false as const };
  return { available: true as const, ...DEMO_CREDENTIALS };
}

/** Creates the demo organization and user once; later starts leave them (and their data) alone. */
export async function ensureDemoUser(db: Db): Promise<void> {
  if (await demoUserExists(db)) return;
  const passwordHash = await hashPassword(DEMO_CREDENTIALS.password);
  await inTransaction(db, (tx) =>
    createOrganizationWithAdmin(tx, {
      organizationName: 'Demo Organization',
      username: DEMO_CREDENTIALS.username,
      email: 'demo@verity.local',
      passwordHash,
    }),
  );
}
