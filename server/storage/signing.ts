import crypto from 'node:crypto';

/** What a local upload URL grants: one PUT of at most `maxBytes` to `key` until `expires` (unix seconds). */
export type UploadGrant = { key: string; expires: number; maxBytes: number };

function mac(secret: string, g: UploadGrant): string {
  return crypto
    .createHmac('sha256', `verity-upload:${secret}`)
    .update(`PUT\n${g.key}\n${g.expires}\n${g.maxBytes}`)
    .digest('base64url');
}

export function signUpload(secret: string, g: UploadGrant): string {
  return mac(secret, g);
}

/** Constant-time check of a signature; false for anything malformed. */
export function verifyUpload(secret: string, g: UploadGrant, signature: string): boolean {
  const expected = Buffer.from(mac(secret, g));
  const given = Buffer.from(signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
