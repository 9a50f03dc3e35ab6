import crypto from 'node:crypto';
import { StorageKeyError } from './types';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UPLOAD_KEY = new RegExp(`^org/(${UUID})/uploads/(${UUID})$`);
const UPLOAD_KEY_IN_URL = new RegExp(`org/(${UUID})/uploads/(${UUID})`);

/** A fresh key for one upload. It names the organization, so a key alone says whose file it is. */
export function newUploadKey(organizationId: string): string {
  return `org/${organizationId}/uploads/${crypto.randomUUID()}`;
}

/**
 * The only keys Verity reads or writes: `org/<uuid>/uploads/<uuid>`. Nothing else (no `..`, no absolute path, no
 * other folder) ever reaches a driver, so a key cannot escape the storage root.
 */
export function assertUploadKey(key: string): { organizationId: string } {
  const m = UPLOAD_KEY.exec(key);
  if (!m?.[1]) throw new StorageKeyError('Invalid object key');
  return { organizationId: m[1] };
}

/** The upload key inside a document URL (an upload URL of either driver), or null. */
export function uploadKeyFromUrl(url: string): { key: string; organizationId: string } | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, 'http://relative.invalid').pathname);
  } catch {
    return null;
  }
  const m = UPLOAD_KEY_IN_URL.exec(pathname);
  if (!m?.[1] || !m[2]) return null;
  return { key: `org/${m[1]}/uploads/${m[2]}`, organizationId: m[1] };
}
