import type { DbOrTx } from '../../db/client';
import { recordAttemptOrLimit } from '../auth/login-limiter';

/**
 * A bearer token that is not a live token counts against its caller's address (as many a minute as the sign-in
 * limit allows, `AUTH_RATE_LIMIT_PER_MINUTE`): past that the answer is 429, so guessing tokens, or a client stuck
 * on a revoked one, cannot keep a server busy with lookups. Good tokens never count.
 */
export async function recordBadToken(db: DbOrTx, ip: string, perMinute: number): Promise<void> {
  await recordAttemptOrLimit(db, `bad-token:${ip}`, {
    windowMs: 60_000,
    max: perMinute,
    message: 'Too many requests with an unknown or revoked token. Wait a minute, and check the token.',
  });
}
