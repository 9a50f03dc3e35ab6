import { sql } from 'drizzle-orm';

/**
 * The time a claim is stamped with, in milliseconds only: the claim comes back as a JS Date, and the worker's later
 * write (its answer, its heartbeat) matches on that value exactly, which microseconds would defeat.
 */
export const CLAIM_NOW = sql`date_trunc('milliseconds', clock_timestamp())`;
