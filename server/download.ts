import type { Readable } from 'node:stream';

/** A file a service hands back for the caller to save; the HTTP layer sends it header for header. */
export type Download = {
  contentType: string;
  /** The Content-Disposition value (`attachment(name)` or `plainAttachment(name)`); absent for a JSON answer. */
  disposition?: string;
  cacheControl: string;
  body: string | Buffer | Readable;
  /** The length of a streamed body, sent as Content-Length. */
  size?: number;
  /** A stored user file: the browser must not sniff it into something it is not. */
  nosniff?: boolean;
};

/** RFC 6266: a plain ASCII fallback plus the exact UTF-8 name, for names a user chose. */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** For names Verity makes up itself (ASCII, no quotes), such as a dated export. */
export function plainAttachment(name: string): string {
  return `attachment; filename="${name}"`;
}

/** `prefix-YYYY-MM-DD.ext`: export files are dated. */
export function datedName(prefix: string, extension: string, now = new Date()): string {
  return `${prefix}-${now.toISOString().slice(0, 10)}.${extension}`;
}
