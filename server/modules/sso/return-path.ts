import { isLocalPath } from '../../../common/schemas/sso';

/**
 * Where the browser may go after signing in: the path resolved as a browser resolves it (dot segments, `%2e`,
 * backslashes, tabs and newlines), kept only when it stays on this origin and its path cannot be read as another
 * host (`/.//evil` resolves to `//evil`); else null, the default landing page. The resolved form is what is stored
 * and redirected to, so the browser gets exactly what was checked. Applied at the start and again at the callback
 * (attempts stored by an earlier version were checked on the raw string).
 */
export function sameSitePath(returnTo: string, publicUrl: string): string | null {
  if (!isLocalPath(returnTo)) return null;
  const base = new URL(publicUrl);
  let target: URL;
  try {
    target = new URL(returnTo, base);
  } catch {
    return null;
  }
  const path = `${target.pathname}${target.search}${target.hash}`;
  const elsewhere = path.startsWith('//') || path.startsWith('/\\') || !path.startsWith('/');
  return target.origin === base.origin && !elsewhere ? path : null;
}
