/** A signed-in user of one API process: its base URL and session cookie. */
export type Session = { base: string; cookie: string; username: string };

export type Reply<T> = { status: number; data: T };

/**
 * Thrown for any reply the seeding did not expect, with the call's URL, status and body: the bench cannot measure a
 * setup that did not happen.
 */
export class UnexpectedReply extends Error {}

/** One JSON (or FormData) call as a signed-in user; `expect` is the status the caller needs. */
export async function call<T>(
  as: Session | { base: string; cookie?: string },
  method: string,
  urlPath: string,
  opts: { body?: unknown; form?: FormData; expect?: number } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = {};
  if (as.cookie) headers.cookie = as.cookie;
  let body: string | FormData | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(`${as.base}${urlPath}`, { method, headers, body });
  const text = await res.text();
  if (opts.expect !== undefined && res.status !== opts.expect) {
    throw new UnexpectedReply(
      `${method} ${as.base}${urlPath}: ${res.status} (expected ${opts.expect}) ${text.slice(0, 500)}`,
    );
  }
  return { status: res.status, data: (text ? JSON.parse(text) : null) as T };
}

/** The session cookie a sign-up or sign-in reply set. */
export function cookieOf(res: Response): string {
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}
