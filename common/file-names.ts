/**
 * Characters a file name must not hold: controls (NUL included, which PostgreSQL cannot store), format characters
 * (text-direction overrides and isolates such as U+202E, which make `invoice‮fdp.exe` read as `invoiceexe.pdf`,
 * zero-width spaces and joiners, soft hyphens, tag characters), line and paragraph separators, and the Hangul
 * fillers that render as nothing.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/u;

export const INVISIBLE_NAME_MESSAGE =
  'File names cannot contain control or invisible characters (such as text-direction overrides). Rename the file and try again.';

export function hasInvisibleCharacters(name: string): boolean {
  return INVISIBLE.test(name);
}
