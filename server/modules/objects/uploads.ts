import crypto from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { UPLOAD_MAX_BYTES, UPLOAD_URL_TTL_SECONDS } from '../../../common/constants';
import type { DbOrTx } from '../../db/client';
import type { UserCtx } from '../../context';
import { uploadLinks } from '../../db/schema';
import { AppError, badRequest } from '../../errors';
import { newUploadKey } from '../../storage/keys';
import type { ObjectStorage } from '../../storage/types';

export type UploadLimits = { quotaBytes: number; linksMax: number };
export type UploadLinkState = 'issued' | 'uploading' | 'uploaded' | 'registering' | 'registered' | 'refused';
export type UploadLink = typeof uploadLinks.$inferSelect;

/** States whose bytes are on their way or stored without a document yet: they count against the quota. */
const PENDING: UploadLinkState[] = ['issued', 'uploading', 'uploaded', 'registering'];

const hashUrl = (url: string) => crypto.createHash('sha256').update(url).digest();

/** "10 GB", "1.5 GB", "500 MB": the quota as an admin configured it. */
export function formatQuota(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb < 1024) return `${Math.round(mb)} MB`;
  return `${Math.round((mb / 1024) * 10) / 10} GB`;
}

export function quotaExceeded(quotaBytes: number): AppError {
  return new AppError(
    413,
    'storage_quota_exceeded',
    `Your organization's storage quota of ${formatQuota(quotaBytes)} is used up; delete documents to make room.`,
  );
}

/**
 * Bytes an organization holds in storage: its documents, its questionnaire originals, and uploads not registered
 * yet (the size they announced while their link is valid, their real size once the bytes arrived). `exceptKey`
 * leaves out the upload being registered, whose bytes the caller adds itself.
 */
export async function storageUsed(db: DbOrTx, organizationId: string, exceptKey?: string): Promise<number> {
  const res = await db.execute(sql`
    select (
      (select coalesce(sum(size), 0) from documents where organization_id = ${organizationId}::uuid)
      + (select coalesce(sum(file_size), 0) from assessment_batches where organization_id = ${organizationId}::uuid)
      + (select coalesce(sum(coalesce(size, declared_size, 0)), 0) from upload_links
         where organization_id = ${organizationId}::uuid
           and state in (${sql.join(
             PENDING.map((s) => sql`${s}`),
             sql`, `,
           )})
           and (state <> 'issued' or expires_at > now())
           and storage_key <> ${exceptKey ?? ''})
    )::text as used`);
  const rows = (res as unknown as { rows: Array<{ used: string }> }).rows;
  return Number(rows[0]?.used ?? 0);
}

/** Refuses `bytes` more when the organization's stored bytes would pass its quota. */
export async function assertQuota(
  db: DbOrTx,
  organizationId: string,
  quotaBytes: number,
  bytes: number,
  exceptKey?: string,
): Promise<void> {
  const used = await storageUsed(db, organizationId, exceptKey);
  if (used + bytes > quotaBytes || (bytes === 0 && used >= quotaBytes)) throw quotaExceeded(quotaBytes);
}

/**
 * A new upload link (POST /api/objects/upload). An organization holds at most `linksMax` links that are neither
 * used up nor expired, and gets none once its stored bytes reach the quota, so one tenant cannot fill the disk it
 * shares with every other tenant and the database.
 */
export async function issueUploadLink(
  ctx: UserCtx,
  storage: ObjectStorage,
  limits: UploadLimits,
  size: number | undefined,
): Promise<{ uploadURL: string; expiresAt: string }> {
  const [open] = await ctx.db
    .select({ n: sql<number>`count(*)::int`, soonest: sql<Date | string | null>`min(${uploadLinks.expiresAt})` })
    .from(uploadLinks)
    .where(
      and(
        eq(uploadLinks.organizationId, ctx.organizationId),
        inArray(uploadLinks.state, ['issued', 'uploading']),
        sql`${uploadLinks.expiresAt} > now()`,
      ),
    );
  if ((open?.n ?? 0) >= limits.linksMax) {
    const soonest = open?.soonest ? new Date(open.soonest).getTime() : Date.now() + UPLOAD_URL_TTL_SECONDS * 1000;
    throw new AppError(
      429,
      'too_many_uploads',
      `Your organization has ${limits.linksMax} uploads in progress. Finish them, or wait until their links expire (${UPLOAD_URL_TTL_SECONDS / 60} minutes after they were made), then try again.`,
      { retryAfterSeconds: Math.max(1, Math.ceil((soonest - Date.now()) / 1000)) },
    );
  }
  if (storage.kind === 's3' && size === undefined) {
    // A presigned PUT limits the body only through the signed length; without it the store takes up to 5 GB.
    throw badRequest("Send the file's size with the request for an upload link (size, in bytes).");
  }
  await assertQuota(ctx.db, ctx.organizationId, limits.quotaBytes, size ?? 0);
  const key = newUploadKey(ctx.organizationId);
  const expiresAt = new Date(Date.now() + UPLOAD_URL_TTL_SECONDS * 1000);
  const uploadURL = await storage.createUploadUrl(key, {
    maxBytes: UPLOAD_MAX_BYTES,
    expiresInSeconds: UPLOAD_URL_TTL_SECONDS,
    size,
  });
  await ctx.db.insert(uploadLinks).values({
    storageKey: key,
    organizationId: ctx.organizationId,
    urlHash: hashUrl(uploadURL).toString('hex'),
    declaredSize: size ?? null,
    expiresAt,
  });
  return { uploadURL, expiresAt: expiresAt.toISOString() };
}

export async function findUploadLink(db: DbOrTx, key: string): Promise<UploadLink | null> {
  const [row] = await db.select().from(uploadLinks).where(eq(uploadLinks.storageKey, key));
  return row ?? null;
}

/** True when `url` is exactly the URL the link was issued as (compared by hash, in constant time). */
export function isIssuedUrl(link: UploadLink, url: string): boolean {
  const expected = Buffer.from(link.urlHash, 'hex');
  const given = hashUrl(url);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/**
 * Moves a link from one of `from` to `to` in one conditional UPDATE: of several requests racing for the same link,
 * exactly one gets the row back. That is what makes a link single-use.
 */
export async function claimUploadLink(
  db: DbOrTx,
  key: string,
  from: UploadLinkState[],
  to: UploadLinkState,
  set: { size?: number; sha256?: string } = {},
): Promise<UploadLink | null> {
  const [row] = await db
    .update(uploadLinks)
    .set({ state: to, updatedAt: new Date(), ...set })
    .where(and(eq(uploadLinks.storageKey, key), inArray(uploadLinks.state, from)))
    .returning();
  return row ?? null;
}
