import { and, isNull, sql } from 'drizzle-orm';
import { users } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { Username } from '../../../common/schemas/auth';

/**
 * A username nobody holds, for an account an identity provider makes (SSO, SCIM): the name it suggests when that is
 * a valid username, else the address's local part without the characters usernames cannot hold, with a number added
 * until it is free (usernames are unique across organizations).
 */
export async function freeUsername(tx: DbOrTx, suggested: string | undefined, email: string): Promise<string> {
  const parsed = Username.safeParse(suggested);
  let base = parsed.success ? parsed.data : email.slice(0, email.indexOf('@')).replace(/[^A-Za-z0-9._-]/g, '');
  if (base.length < 3) base = `${base}user`.slice(0, Math.max(3, base.length));
  base = base.slice(0, 56);
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? base : `${base}${n}`;
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.username}) = lower(${candidate})`, isNull(users.deletedAt)))
      .limit(1);
    if (!taken) return candidate;
  }
  throw new Error('no free username');
}
