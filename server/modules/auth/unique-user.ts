import { and, ne, sql } from 'drizzle-orm';
import { users } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { conflict } from '../../errors';

/**
 * 409 with a sentence naming what is taken. `exceptUserId` lets a user keep their own name and e-mail; `email`
 * null checks the username only (a profile edit: the address changes only through a mailed link).
 */
export async function assertUsernameAndEmailFree(
  db: DbOrTx,
  username: string,
  email: string | null,
  exceptUserId?: string,
): Promise<void> {
  const live = sql`${users.deletedAt} is null`;
  const notSelf = exceptUserId ? ne(users.id, exceptUserId) : undefined;
  const [byName] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.username}) = lower(${username})`, live, notSelf))
    .limit(1);
  if (byName) throw conflict('Username already exists. Choose another one.');
  if (email === null) return;
  const [byEmail] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, live, notSelf))
    .limit(1);
  if (byEmail) throw conflict('An account with this email already exists.');
}

/** A unique-index race lost between the check above and the insert still answers 409, not 500. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}
